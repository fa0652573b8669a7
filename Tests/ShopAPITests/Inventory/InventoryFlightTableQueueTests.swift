import XCTest
@testable import ShopAPI

/// `InventoryFlightTable` on a manual clock: its queue lets out at most `limit` flights, in FIFO
/// order, never one nobody waits on; the limit shrinks while the service is slow and grows back.
/// (These replace the tests of the admission gate the table took over.)
final class InventoryFlightTableQueueTests: XCTestCase {
    private typealias Driver = FlightTableDriver

    func test_underItsLimit_flightsGoAtOnce_andTheRestWaitInFIFOOrder() {
        var driver = Driver { $0.ceiling = 2; $0.coalescing = false }
        var sent: [FlightTableDriver.Flight] = []
        for index in 0..<5 { sent += Driver.sends(driver.start(Driver.skus(index), deadlineMs: nil).actions) }
        XCTAssertEqual(sent, [Driver.flight(0), Driver.flight(1)], "only `limit` go before anything ends")
        XCTAssertEqual(driver.table.stats.inFlight, 2)
        XCTAssertEqual(driver.table.stats.queued, 3)
        for next in 0..<3 { sent += Driver.sends(driver.answer(Driver.flight(UInt64(next)))) }
        XCTAssertEqual(sent, (0..<5).map { Driver.flight($0) })
        XCTAssertEqual(driver.table.stats.inFlight, 2)
        _ = driver.answer(Driver.flight(3))
        _ = driver.answer(Driver.flight(4))
        XCTAssertEqual(driver.table.stats.inFlight, 0)
        XCTAssertEqual(driver.table.stats.queued, 0)
    }

    func test_aWithdrawnFlight_isNeverSent_andTheNextOneTakesItsTurn() {
        var driver = Driver { $0.ceiling = 1 }
        _ = driver.start(["SKU-0000"], deadlineMs: nil)
        let leaving = driver.start(["SKU-0001"], deadlineMs: nil)
        let staying = driver.start(["SKU-0002"], deadlineMs: nil)
        XCTAssertEqual(driver.table.flights[Driver.flight(1)]?.waiters, [leaving.check, staying.check], "batched")
        XCTAssertEqual(driver.interrupt(leaving.check), [.complete(leaving.check, .failure(.interrupted))],
                       "the flight still has a waiter: nothing to withdraw")
        XCTAssertEqual(driver.interrupt(staying.check), [.complete(staying.check, .failure(.interrupted))])
        XCTAssertNil(driver.table.flights[Driver.flight(1)], "its last waiter left: withdrawn")
        XCTAssertEqual(driver.table.stats.queued, 0)
        let last = driver.start(["SKU-0004"], deadlineMs: nil)
        XCTAssertEqual(driver.answer(Driver.flight(0)), [.complete(FlightTableDriver.check(0),
                                                                   .success(InventoryLevels(levels: [StockLevel(sku: "SKU-0000", available: 0)]))),
                                                         .send(Driver.flight(2), skus: ["SKU-0004"], timeoutMilliseconds: nil)])
        XCTAssertEqual(driver.table.state(of: last.check), .waiting)
        XCTAssertEqual(driver.table.stats.upstreamRequests, 2, "the withdrawn flight never went out")
    }

    /// While the service is slow the limit shrinks: finished requests free slots without letting
    /// the next flight out until fewer than the new limit are out. Once it is fast again the limit
    /// grows back to the ceiling. Never more than the ceiling out.
    func test_theLimit_shrinksWhileTheServiceIsSlow_andGrowsBack_andOnlyThatManyGoOut() {
        var driver = Driver { $0.ceiling = 16; $0.coalescing = false }
        var next = 0
        func startChecks(_ count: Int) {
            for _ in 0..<count {
                next += 1
                _ = driver.start(Driver.skus(next), deadlineMs: nil)
            }
        }
        /// `latencyMs` pass, then every flight out before is answered, checking the limit holds.
        func round(_ latencyMs: UInt64) {
            let out = driver.table.flights.values.filter { $0.sentAtNs != nil }.map(\.id).sorted()
            driver.advance(ms: latencyMs)
            for flight in out {
                let actions = driver.answer(flight)
                if !Driver.sends(actions).isEmpty {
                    XCTAssertLessThanOrEqual(driver.table.sentCount, driver.table.limiter.limit, "a flight goes out only below the limit")
                }
                XCTAssertLessThanOrEqual(driver.table.sentCount, 16)
            }
        }
        startChecks(16)
        round(100)
        XCTAssertEqual(driver.table.limiter.limit, 16, "a fast service keeps the ceiling")

        startChecks(40)
        XCTAssertEqual(driver.table.stats.inFlight, 16)
        while !driver.table.flights.isEmpty { round(2_000) }
        let shrunk = driver.table.limiter.limit
        XCTAssertLessThan(shrunk, 16, "it shrank while the service took 20× longer")
        XCTAssertGreaterThanOrEqual(shrunk, 1)

        startChecks(40)
        XCTAssertEqual(driver.table.stats.inFlight, shrunk, "only the shrunk limit goes out at once")
        var rounds = 0
        while driver.table.limiter.limit < 16, rounds < 200 {
            round(100)
            if driver.table.flights.isEmpty { startChecks(16) }
            rounds += 1
        }
        XCTAssertEqual(driver.table.limiter.limit, 16, "back to the ceiling once the service is fast again (\(rounds) rounds)")
    }

    /// A limit raised by a fast answer lets two flights out when one request ends.
    func test_aRaisedLimit_letsTwoOutWhenOneRequestEnds() {
        var driver = Driver { $0.ceiling = 16; $0.coalescing = false }
        _ = driver.start(Driver.skus(0), deadlineMs: nil)
        driver.advance(ms: 10)
        _ = driver.answer(Driver.flight(0))  // baseline: 10 ms
        for index in 1...16 { _ = driver.start(Driver.skus(index), deadlineMs: nil) }
        driver.advance(ms: 2_000)
        for number in 1...8 { _ = driver.answer(Driver.flight(UInt64(number))) }  // slow: the limit drops
        XCTAssertLessThan(driver.table.limiter.limit, 16)
        for index in 17...200 { _ = driver.start(Driver.skus(index), deadlineMs: nil) }
        var mostSentByOneEnd = 0
        for _ in 0..<500 where mostSentByOneEnd < 2 {
            driver.advance(ms: 5)
            guard let newest = driver.table.flights.values.filter({ $0.sentAtNs != nil }).map(\.id).max() else { break }
            mostSentByOneEnd = max(mostSentByOneEnd, Driver.sends(driver.answer(newest)).count)  // a 5 ms answer
        }
        XCTAssertEqual(mostSentByOneEnd, 2, "a fast answer raised the limit: two flights went out for one that ended")
    }
}
