import Dispatch
import XCTest
@testable import ShopAPI

/// `InventoryTime`: the inventory client's time arithmetic, which saturates instead of trapping.
final class InventoryTimeTests: XCTestCase {
    private let ms: UInt64 = 1_000_000
    private let now: UInt64 = 1_000_000_000

    /// When a queued check stops being worth sending (`latestStart`).
    func test_latestStart_isTheMinimumUsefulTimeBeforeTheDeadline_orAQuarterOfAShortBudget() {
        func latest(_ budgetMs: UInt64) -> UInt64 {
            InventoryTime.shortlyBefore(now + budgetMs * ms, milliseconds: 100, now: now) - now
        }
        XCTAssertEqual(latest(5000), 4900 * ms)
        XCTAssertEqual(latest(1500), 1400 * ms)
        XCTAssertEqual(latest(40), 30 * ms, "a 40 ms call can still be sent in its first 30 ms")
        XCTAssertEqual(InventoryTime.shortlyBefore(InventoryTime.noDeadline, milliseconds: 100, now: now), InventoryTime.noDeadline)
        XCTAssertEqual(InventoryTime.shortlyBefore(now - 5 * ms, milliseconds: 100, now: now), now - 5 * ms)
        XCTAssertEqual(DispatchTime.distantFuture.uptimeNanoseconds, InventoryTime.noDeadline, "a call without a deadline has none here either")
    }

    /// `X-Request-Timeout-Ms`: the whole milliseconds a check has left when its request is sent.
    func test_timeoutHeader_isTheWholeMillisecondsLeft_zeroWhenPassed_absentWithoutADeadline() {
        func header(_ deadline: UInt64) -> String? {
            InventoryHTTPSession.timeoutHeader(milliseconds: InventoryTime.millisecondsLeft(until: deadline, now: now))
        }
        XCTAssertEqual(header(now + 1_500_999_999), "X-Request-Timeout-Ms: 1500")
        XCTAssertEqual(header(now), "X-Request-Timeout-Ms: 0")
        XCTAssertEqual(header(now - 1_000 * ms), "X-Request-Timeout-Ms: 0")
        XCTAssertNil(header(InventoryTime.noDeadline))
    }

    func test_sums_saturateAtNoDeadline_andMeasuredDurationsBelowOneAddNothing() {
        XCTAssertEqual(InventoryTime.adding(UInt64(5), to: UInt64.max - 2), InventoryTime.noDeadline)
        XCTAssertEqual(InventoryTime.adding(1e30, to: now), InventoryTime.noDeadline)
        XCTAssertEqual(InventoryTime.adding(-5.0, to: now), now)
        XCTAssertEqual(InventoryTime.adding(Double.nan, to: now), now)
        XCTAssertEqual(InventoryTime.adding(2.9, to: now), now + 2)
        XCTAssertEqual(InventoryTime.nanoseconds(milliseconds: -3), 0)
        XCTAssertEqual(InventoryTime.nanoseconds(milliseconds: Int.max), InventoryTime.noDeadline)
        XCTAssertEqual(InventoryTime.left(until: now, now: now + 1), 0)
    }
}
