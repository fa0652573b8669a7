import Dispatch
import XCTest
@testable import RPCServer
import SharedSupport

final class FirstUseTests: XCTestCase {
    func test_value_isComputedOnce_onFirstUse_evenWhenFirstUsesRace() {
        let computations = Locked(0)
        let cell = FirstUse<Int> {
            computations.withLock { $0 += 1 }
            return 42
        }
        XCTAssertEqual(computations.withLock { $0 }, 0, "computed before it was asked for")
        let seen = Locked<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            let value = cell.value
            seen.withLock { $0.append(value) }
        }
        XCTAssertEqual(computations.withLock { $0 }, 1)
        XCTAssertEqual(seen.withLock { $0 }, Array(repeating: 42, count: 64))
        XCTAssertEqual(cell.value, 42)
    }

    func test_aValueNeverAskedFor_isNeverComputed_andReleasingItIsSafe() {
        let computations = Locked(0)
        do {
            let unused = FirstUse<[String]> {
                computations.withLock { $0 += 1 }
                return ["never"]
            }
            _ = unused
        }
        let used = FirstUse<[String]> {
            computations.withLock { $0 += 1 }
            return ["once"]
        }
        XCTAssertEqual(computations.withLock { $0 }, 0)
        XCTAssertEqual(used.value, ["once"])
        XCTAssertEqual(used.value, ["once"])
        XCTAssertEqual(computations.withLock { $0 }, 1)
    }
}
