import XCTest
@testable import ShopAPI

/// `InventoryFlightTable` on a manual clock with `--inventory-stale-ms`: a SKU that gets no fresh
/// level is answered from the last one the service gave, marked with its age, never an invented
/// one; shortly before its deadline a check still waiting is answered so (the timer's wake-up).
final class InventoryFlightTableStaleTests: XCTestCase {
    private typealias Driver = FlightTableDriver

    private func staleDriver(_ configure: (inout InventoryFlightTable.Configuration) -> Void = { _ in }) -> Driver {
        Driver {
            $0.staleMilliseconds = 60_000
            $0.circuitCoolDownMilliseconds = 600_000
            configure(&$0)
        }
    }

    /// While the service fails, a SKU it answered before is answered from that level, marked with
    /// its age; a SKU it never answered fails the check; a check half covered by a good flight and
    /// half by a failed one says so per level.
    func test_staleLevels_areMarkedWithTheirAge_perLevel_andNeverInvented() {
        var driver = staleDriver()
        let first = driver.start(["SKU-0002"])
        driver.advance(ms: 30)
        _ = driver.answer(Driver.flight(0), plus: 1_000)  // the service said 1002 for SKU-0002
        driver.advance(ms: 10_000)
        let slow = driver.start(["SKU-0001"])
        let mixed = driver.start(["SKU-0001", "SKU-0002"])
        XCTAssertEqual(driver.table.flights[Driver.flight(2)]?.skus, ["SKU-0002"], "SKU-0001 joined the slow flight")
        let never = driver.start(["SKU-0002", "SKU-0099"])
        driver.advance(ms: 5)
        let failed = driver.answerStatus(Driver.flight(2), 503)
        XCTAssertEqual(Driver.completed(failed), [], "the mixed check still waits for SKU-0001")
        XCTAssertEqual(driver.table.checks[mixed.check]?.found["SKU-0002"], StockLevel(sku: "SKU-0002", available: 1_002, ageMs: 10_005))
        let neverEnd = driver.answerStatus(Driver.flight(3), 503)
        XCTAssertEqual(neverEnd, [.complete(never.check, .failure(Driver.httpError(503)))], "SKU-0099 has no level to give")
        driver.advance(ms: 100)
        let landed = driver.answer(Driver.flight(1))
        XCTAssertEqual(Driver.completed(landed), [slow.check, mixed.check])
        XCTAssertEqual(Driver.levels(of: mixed.check, in: landed),
                       [StockLevel(sku: "SKU-0001", available: 1), StockLevel(sku: "SKU-0002", available: 1_002, ageMs: 10_005)])
        XCTAssertEqual(driver.table.counters.staleAnswers, 1)
        XCTAssertEqual(driver.table.counters.staleLevels, 1)
        _ = first
    }

    /// A level older than `--inventory-stale-ms` is never given: the check gets the error.
    func test_aLevelOlderThanAllowed_isNotGiven() {
        var driver = staleDriver { $0.staleMilliseconds = 1_000 }
        _ = driver.start(["SKU-0001"])
        _ = driver.answer(Driver.flight(0))
        driver.advance(ms: 1_000)
        let young = driver.start(["SKU-0001"])
        XCTAssertEqual(Driver.levels(of: young.check, in: driver.fail(Driver.flight(1))), [StockLevel(sku: "SKU-0001", available: 1, ageMs: 1_000)])
        driver.advance(ms: 1)
        let old = driver.start(["SKU-0001"])
        XCTAssertEqual(Driver.result(of: old.check, in: driver.fail(Driver.flight(2))), .failure(Driver.refused))
    }

    /// The open circuit answers from stale levels too.
    func test_theOpenCircuit_answersFromStaleLevels() {
        var driver = staleDriver { $0.circuitFailures = 1 }
        _ = driver.start(["SKU-0005"])
        _ = driver.answer(Driver.flight(0))
        _ = driver.start(["SKU-0006"])
        _ = driver.fail(Driver.flight(1))
        driver.advance(ms: 40)
        let refused = driver.start(["SKU-0005"])
        XCTAssertEqual(Driver.levels(of: refused.check, in: refused.actions), [StockLevel(sku: "SKU-0005", available: 5, ageMs: 40)])
        XCTAssertEqual(driver.table.counters.refusedWhileOpen, 1)
        XCTAssertEqual(Driver.sends(refused.actions), [])
    }

    /// Shortly before its deadline (250 ms, or a quarter of its budget) a check still waiting is
    /// answered from stale levels, and its request, which nobody waits on any more, is cancelled
    /// as cut off by time: a latency sample and a failure for the breaker.
    func test_nearItsDeadline_aCheckStillWaiting_isAnsweredStale_andItsRequestCancelledAsTimeUp() {
        var driver = staleDriver()
        _ = driver.start(["SKU-0005"])
        driver.advance(ms: 20)
        _ = driver.answer(Driver.flight(0))
        let slow = driver.start(["SKU-0005"], deadlineMs: 2_000)
        XCTAssertEqual(slow.actions, [.send(Driver.flight(1), skus: ["SKU-0005"], timeoutMilliseconds: 2_000),
                                      .wakeUp(at: driver.later(ms: 1_750))])
        driver.advance(ms: 1_749)
        XCTAssertEqual(driver.fireTimer(), [.wakeUp(at: driver.later(ms: 1))], "a timer that fires early changes nothing")
        driver.advance(ms: 1)
        let woken = driver.fireTimer()
        XCTAssertEqual(woken, [.cancel(Driver.flight(1)),
                               .complete(slow.check, .success(InventoryLevels(levels: [StockLevel(sku: "SKU-0005", available: 5, ageMs: 1_750)])))])
        driver.advance(ms: 3)
        _ = driver.cancelled(Driver.flight(1))
        XCTAssertEqual(driver.table.limiter.recentNs.map { Int($0 / 1e6) }, 453, "20 ms, then 1 753 ms: 20 + (1 753 - 20) × 0.25")
        XCTAssertEqual(driver.table.breaker.state, .closed(failuresInARow: 1))
    }

    /// Shortly before its deadline, a check lacking a stale level for one of its SKUs keeps waiting.
    func test_nearItsDeadline_aCheckLackingAStaleLevel_keepsWaiting() {
        var driver = staleDriver()
        _ = driver.start(["SKU-0005"])
        _ = driver.answer(Driver.flight(0))
        let check = driver.start(["SKU-0005", "SKU-0006"], deadlineMs: 1_000)
        driver.advance(ms: 750)
        XCTAssertEqual(driver.fireTimer(), [])
        XCTAssertEqual(driver.table.state(of: check.check), .waiting)
        driver.advance(ms: 100)
        XCTAssertEqual(Driver.levels(of: check.check, in: driver.answer(Driver.flight(1)))?.map(\.isStale), [false, false])
    }

    /// The table keeps the owner's one timer armed for the earliest wake-up of a waiting check:
    /// moved earlier when a check needs it, left alone for a later one, armed again after firing;
    /// a check answered before its wake-up is skipped.
    func test_theTimer_isArmedForTheEarliestWakeUp() {
        var driver = staleDriver()
        let five = driver.start(["SKU-0001"], deadlineMs: 5_000)
        XCTAssertEqual(five.actions.last, .wakeUp(at: driver.later(ms: 4_750)))
        let two = driver.start(["SKU-0002"], deadlineMs: 2_000)
        XCTAssertEqual(two.actions.last, .wakeUp(at: driver.later(ms: 1_750)), "earlier: moved")
        let ten = driver.start(["SKU-0003"], deadlineMs: 10_000)
        XCTAssertEqual(ten.actions, [.send(Driver.flight(2), skus: ["SKU-0003"], timeoutMilliseconds: 10_000)], "later: left alone")
        let short = driver.start(["SKU-0004"], deadlineMs: 40)
        XCTAssertEqual(short.actions.last, .wakeUp(at: driver.later(ms: 30)), "a quarter of a short budget")
        let noDeadline = driver.start(["SKU-0004"], deadlineMs: nil)
        XCTAssertEqual(noDeadline.actions, [], "joins; no wake-up without a deadline")
        XCTAssertEqual(driver.table.wakeUps.count, 4)
        driver.advance(ms: 10)
        _ = driver.answer(Driver.flight(1))
        _ = driver.answer(Driver.flight(3))
        driver.advance(ms: 20)
        XCTAssertEqual(driver.fireTimer(), [.wakeUp(at: driver.later(ms: 4_720))], "two's check was answered: the next wake-up is five's")
    }
}
