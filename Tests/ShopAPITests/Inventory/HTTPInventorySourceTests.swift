import Dispatch
import Foundation
import XCTest
import SharedSupport
@testable import ShopAPI

/// `HTTPInventorySource` carrying out its flight table's decisions on a clock the test moves,
/// against a port that refuses every connection (so each request ends at once, and no answer
/// depends on a service's speed): each check completes exactly once, and the circuit breaker's
/// times are the injected clock's, to the millisecond.
final class HTTPInventorySourceTests: XCTestCase {
    private let ms: UInt64 = 1_000_000
    private let clock = Locked<UInt64>(5_000_000_000)

    private func source(_ url: URL) throws -> HTTPInventorySource {
        let clock = self.clock
        return try HTTPInventorySource(baseURL: url.deletingLastPathComponent(), clock: { clock.withLock { $0 } })
    }

    /// Runs one check with a 5 s deadline on the test's clock and waits for its one completion
    /// (a second one fails the test: the expectation is over-fulfilled).
    private func check(_ source: HTTPInventorySource, _ skus: [String]) -> Result<InventoryLevels, ShopError>? {
        let done = expectation(description: "completed")
        let result = Locked<Result<InventoryLevels, ShopError>?>(nil)
        let deadline = DispatchTime(uptimeNanoseconds: clock.withLock { $0 } + 5_000 * ms)
        source.checkInventory(skus: skus, deadline: deadline, interruption: TestInterruption()) { outcome in
            result.withLock { $0 = outcome }
            done.fulfill()
        }
        wait(for: [done], timeout: 20)  // hang guard: a refused connection ends at once
        return result.withLock { $0 }
    }

    func test_fiveRefusals_openTheCircuit_forExactlyTheCoolDownOnTheInjectedClock_thenOneProbe() throws {
        let source = try source(try refusingLoopbackURL())
        let refused = ShopError.inventoryUnavailable(detail: "connection refused", status: nil)
        for index in 1...5 {
            XCTAssertEqual(check(source, ["SKU-000\(index)"]), .failure(refused), "request \(index)")
        }
        XCTAssertEqual(check(source, ["SKU-0006"]), .failure(.inventoryCircuitOpen(retryAfterMs: 2_000)))
        clock.withLock { $0 += 1_500 * ms }
        XCTAssertEqual(check(source, ["SKU-0006"]), .failure(.inventoryCircuitOpen(retryAfterMs: 500)))
        clock.withLock { $0 += 500 * ms }
        XCTAssertEqual(check(source, ["SKU-0007"]), .failure(refused), "the cool-down is over: one probe, refused")
        XCTAssertEqual(check(source, ["SKU-0008"]), .failure(.inventoryCircuitOpen(retryAfterMs: 2_000)), "the failed probe opened it again")
        let stats = source.stats
        XCTAssertEqual(stats.circuit, "open")
        XCTAssertEqual(stats.circuitOpened, 2)
        XCTAssertEqual(stats.upstreamRequests, 6)
        XCTAssertEqual(stats.upstreamFailures, 6)
        XCTAssertEqual(stats.refusedWhileOpen, 3)
        XCTAssertEqual(stats.inFlight, 0)
        XCTAssertTrue(source.held == (0, 0), "no check or request left behind: \(source.held)")
    }

    /// A check already interrupted when it starts is answered at once, without a request.
    func test_aCheckInterruptedBeforeItStarts_isAnsweredAtOnce_withoutARequest() throws {
        let source = try source(try refusingLoopbackURL())
        let done = expectation(description: "completed")
        source.checkInventory(skus: ["SKU-0001"], deadline: .distantFuture, interruption: TestInterruption(interrupted: true)) {
            XCTAssertEqual($0, .failure(.interrupted))
            done.fulfill()
        }
        wait(for: [done], timeout: 20)
        XCTAssertEqual(source.stats.upstreamRequests, 0)
    }
}
