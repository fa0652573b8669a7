import XCTest
@testable import ShopAPI

/// `InventoryFlightTable` on a manual clock: how checks leave their flights (interrupted by a
/// deadline or a cancel), how requests end (answered, failed, cancelled), and what that tells the
/// adaptive limit and the circuit breaker.
final class InventoryFlightTableEndingTests: XCTestCase {
    private typealias Driver = FlightTableDriver

    /// A check that leaves (its client cancels) does not cancel a flight another check still
    /// waits on; when the last one leaves, the request is cancelled.
    func test_aSharedFlight_isCancelledOnlyWhenNoCheckWaitsOnItAnyMore() {
        var driver = Driver()
        let one = driver.start(["SKU-0007"])
        let two = driver.start(["SKU-0007"])
        driver.advance(ms: 100)
        XCTAssertEqual(driver.interrupt(one.check), [.complete(one.check, .failure(.interrupted))], "check 2 still waits: not cancelled")
        driver.advance(ms: 100)
        XCTAssertEqual(driver.answer(Driver.flight(0)),
                       [.complete(two.check, .success(InventoryLevels(levels: [StockLevel(sku: "SKU-0007", available: 7)])))])

        let three = driver.start(["SKU-0008"])
        let four = driver.start(["SKU-0008"])
        XCTAssertEqual(driver.interrupt(three.check), [.complete(three.check, .failure(.interrupted))])
        XCTAssertEqual(driver.interrupt(four.check), [.cancel(Driver.flight(1)), .complete(four.check, .failure(.interrupted))])
        XCTAssertEqual(driver.table.flights[Driver.flight(1)]?.state, .cancelling(sentAtNs: driver.now, timeUp: false))
        XCTAssertNil(driver.table.flightsBySku["SKU-0008"], "a flight being cancelled is not joined")
        let again = driver.start(["SKU-0008"])
        XCTAssertEqual(Driver.sends(again.actions), [Driver.flight(2)])
        XCTAssertEqual(driver.cancelled(Driver.flight(1)), [])
        XCTAssertEqual(driver.table.counters.cancelled, 1)
        XCTAssertEqual(driver.interrupt(one.check), [], "an answered check is left alone")
    }

    /// A request cancelled because its checks' time was up counts against the service (a latency
    /// sample, a failure for the breaker); one its client cancelled does not.
    func test_aRequestCutOffByTheDeadline_countsAgainstTheService_oneCancelledByItsClientDoesNot() {
        var driver = Driver { $0.circuitFailures = 1 }
        let cancelled = driver.start(["SKU-0001"], deadlineMs: 1_000)
        driver.advance(ms: 300)
        XCTAssertEqual(Driver.completed(driver.interrupt(cancelled.check)), [cancelled.check])
        driver.advance(ms: 10)
        _ = driver.cancelled(Driver.flight(0))
        XCTAssertNil(driver.table.limiter.recentNs, "no sample")
        XCTAssertEqual(driver.table.breaker.stateName, "closed")

        let cutOff = driver.start(["SKU-0002"], deadlineMs: 1_000)
        driver.advance(ms: 1_000)
        let interrupted = driver.interrupt(cutOff.check)
        XCTAssertEqual(interrupted, [.cancel(Driver.flight(1)), .complete(cutOff.check, .failure(.interrupted))])
        XCTAssertEqual(driver.table.flights[Driver.flight(1)]?.state, .cancelling(sentAtNs: driver.later(ms: 0) - 1_000 * Driver.ms, timeUp: true))
        driver.advance(ms: 5)
        _ = driver.cancelled(Driver.flight(1))
        XCTAssertEqual(driver.table.limiter.recentNs, Double(1_005 * Driver.ms), "the sample: how long it was out")
        XCTAssertEqual(driver.table.breaker.stateName, "open", "a failure (threshold 1)")
    }

    /// How each end is counted (`rpc.stats`): answered, upstream failures (an HTTP error or no
    /// answer), cancelled; and what each check gets.
    func test_eachKindOfEnd_isCountedAndAnswered() {
        var driver = Driver()
        let answered = driver.start(["SKU-0001"])
        let refused = driver.start(["SKU-0002"])
        let status = driver.start(["SKU-0003"])
        driver.advance(ms: 50)
        XCTAssertEqual(Driver.levels(of: answered.check, in: driver.answer(Driver.flight(0)))?.map(\.available), [1])
        XCTAssertEqual(Driver.result(of: refused.check, in: driver.fail(Driver.flight(1))), .failure(Driver.refused))
        XCTAssertEqual(Driver.result(of: status.check, in: driver.answerStatus(Driver.flight(2), 503)), .failure(Driver.httpError(503)))
        let stats = driver.table.stats
        XCTAssertEqual([stats.upstreamRequests, stats.answered, stats.upstreamFailures, stats.cancelled], [3, 1, 2, 0])
        XCTAssertEqual(stats.latencyRecentMs, 50, "two answers measured (the refused request is no latency)")
        XCTAssertEqual(stats.inFlight, 0)
        XCTAssertEqual(driver.answer(Driver.flight(0)), [], "an end reported twice is ignored")
    }

    /// A request that ends cancelled while checks still wait on it (the client stopped) fails them.
    func test_aRequestCancelledUnderItsWaiters_failsThem() {
        var driver = Driver()
        let check = driver.start(["SKU-0001"])
        XCTAssertEqual(driver.cancelled(Driver.flight(0)), [.complete(check.check, .failure(Driver.cancelledError))])
    }

    // MARK: - The circuit breaker

    /// Five failures in a row open the circuit: checks are refused at once (1009, retry after), a
    /// flight already pending is still joined; after the cool-down one probe goes out while the
    /// others are refused; its success closes the circuit.
    func test_fiveFailuresInARow_openTheCircuit_thenOneProbe_andItsSuccessCloses() {
        var driver = Driver()
        for index in 1...5 {
            _ = driver.start(Driver.skus(index))
            _ = driver.answerStatus(Driver.flight(UInt64(index - 1)), 503)
        }
        let refused = driver.start(["SKU-0006"])
        XCTAssertEqual(refused.actions, [.complete(refused.check, .failure(.inventoryCircuitOpen(retryAfterMs: 2_000)))])
        driver.advance(ms: 1_500)
        XCTAssertEqual(Driver.result(of: FlightTableDriver.check(6), in: driver.start(["SKU-0006"]).actions),
                       .failure(.inventoryCircuitOpen(retryAfterMs: 500)))
        driver.advance(ms: 500)
        let probe = driver.start(["SKU-0007"])
        XCTAssertEqual(Driver.sends(probe.actions), [Driver.flight(5)])
        XCTAssertEqual(driver.table.flights[Driver.flight(5)]?.probe, true)
        XCTAssertEqual(driver.table.stats.circuit, "halfOpen")
        let sameSku = driver.start(["SKU-0007"])
        XCTAssertEqual(sameSku.actions, [], "joins the probe")
        let other = driver.start(["SKU-0008"])
        XCTAssertEqual(Driver.result(of: other.check, in: other.actions), .failure(.inventoryCircuitOpen(retryAfterMs: 2_000)),
                       "one probe at a time")
        driver.advance(ms: 20)
        XCTAssertEqual(Driver.completed(driver.answer(Driver.flight(5))), [probe.check, sameSku.check])
        XCTAssertEqual(driver.table.stats.circuit, "closed")
        XCTAssertEqual(Driver.sends(driver.start(["SKU-0008"]).actions).count, 1)
        let stats = driver.table.stats
        XCTAssertEqual([stats.circuitOpened, stats.refusedWhileOpen, stats.upstreamFailures], [1, 3, 5])
    }

    /// A probe that ends without a verdict lets the next check probe: one its client cancels, and
    /// one shed before it is sent.
    func test_aProbeWithoutAVerdict_letsTheNextCheckProbe() {
        var driver = Driver { $0.circuitFailures = 1 }
        _ = driver.start(["SKU-0009"])
        driver.advance(ms: 1_000)
        _ = driver.answer(Driver.flight(0))  // the service takes 1 s
        _ = driver.start(["SKU-0001"])
        _ = driver.fail(Driver.flight(1))
        XCTAssertEqual(driver.table.stats.circuit, "open")
        driver.advance(ms: 2_000)

        let cancelledProbe = driver.start(["SKU-0002"])
        XCTAssertEqual(driver.table.flights[Driver.flight(2)]?.probe, true)
        _ = driver.interrupt(cancelledProbe.check)  // its client cancels
        _ = driver.cancelled(Driver.flight(2))
        XCTAssertEqual(driver.table.stats.circuit, "open", "open for no time: the next check probes")

        let shedProbe = driver.start(["SKU-0003"], deadlineMs: 500)
        XCTAssertEqual(Driver.sends(shedProbe.actions), [], "an answer in 1 s cannot come within 500 ms")
        guard case .failure(.inventoryShed)? = Driver.result(of: shedProbe.check, in: shedProbe.actions) else {
            return XCTFail("\(shedProbe.actions)")
        }
        XCTAssertEqual(driver.table.stats.circuit, "open", "the shed probe gave its turn back")

        let probe = driver.start(["SKU-0004"])
        XCTAssertEqual(Driver.sends(probe.actions), [Driver.flight(3)])
        XCTAssertEqual(driver.table.flights[Driver.flight(3)]?.probe, true)
        driver.advance(ms: 10)
        _ = driver.answer(Driver.flight(3))
        XCTAssertEqual(driver.table.stats.circuit, "closed")
    }

    /// A failed probe opens the circuit for another cool-down.
    func test_aFailedProbe_opensTheCircuitAgain() {
        var driver = Driver { $0.circuitFailures = 1 }
        _ = driver.start(["SKU-0001"])
        _ = driver.fail(Driver.flight(0))
        driver.advance(ms: 2_000)
        _ = driver.start(["SKU-0002"])
        _ = driver.fail(Driver.flight(1))
        XCTAssertEqual(driver.table.stats.circuit, "open")
        XCTAssertEqual(driver.table.stats.circuitOpened, 2)
        let refused = driver.start(["SKU-0003"])
        XCTAssertEqual(Driver.result(of: refused.check, in: refused.actions), .failure(.inventoryCircuitOpen(retryAfterMs: 2_000)))
    }
}
