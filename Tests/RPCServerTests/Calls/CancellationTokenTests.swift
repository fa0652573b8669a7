import XCTest
@testable import RPCServer
import SharedSupport

final class CancellationTokenTests: XCTestCase {
    func test_cancel_runsRemainingHandlersOnce_inRegistrationOrder() {
        let token = CancellationToken()
        let ran = Locked<[Int]>([])
        for number in 0..<5 {
            let registration = token.onCancel { ran.withLock { $0.append(number) } }
            if number == 1 || number == 3 { registration.remove() }
        }
        XCTAssertTrue(token.cancel())
        XCTAssertFalse(token.cancel(), "a second cancel does nothing")
        XCTAssertEqual(ran.withLock { $0 }, [0, 2, 4])
        XCTAssertTrue(token.isCancelled)
    }

    func test_registeringAfterCancel_runsAtOnce_andRemovingTwiceIsHarmless() {
        let token = CancellationToken()
        token.cancel()
        let ran = Locked(0)
        let registration = token.onCancel { ran.withLock { $0 += 1 } }
        XCTAssertEqual(ran.withLock { $0 }, 1)
        registration.remove()
        registration.remove()
        let other = CancellationToken()
        let removed = other.onCancel { ran.withLock { $0 += 10 } }
        removed.remove()
        removed.remove()
        other.cancel()
        XCTAssertEqual(ran.withLock { $0 }, 1)
    }

    /// The first handler is kept apart from the rest (no array for the usual one): removing it and
    /// registering more must still run them in registration order, each once.
    func test_removingTheFirstHandler_keepsRegistrationOrderForTheRest() {
        let token = CancellationToken()
        let ran = Locked<[String]>([])
        let a = token.onCancel { ran.withLock { $0.append("a") } }
        token.onCancel { ran.withLock { $0.append("b") } }
        a.remove()
        token.onCancel { ran.withLock { $0.append("c") } }
        let d = token.onCancel { ran.withLock { $0.append("d") } }
        d.remove()
        token.onCancel { ran.withLock { $0.append("e") } }
        token.cancel()
        XCTAssertEqual(ran.withLock { $0 }, ["b", "c", "e"])

        let alone = CancellationToken()
        alone.onCancel { ran.withLock { $0.append("x") } }.remove()
        alone.onCancel { ran.withLock { $0.append("y") } }
        alone.cancel()
        XCTAssertEqual(ran.withLock { $0 }, ["b", "c", "e", "y"])
    }
}
