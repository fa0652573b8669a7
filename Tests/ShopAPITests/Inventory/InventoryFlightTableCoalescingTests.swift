import XCTest
@testable import ShopAPI

/// `InventoryFlightTable` on a manual clock: checks share flights for their SKUs (coalescing),
/// and SKUs of checks queued behind busy slots are batched into the flight still queued.
final class InventoryFlightTableCoalescingTests: XCTestCase {
    private typealias Driver = FlightTableDriver

    /// Ten checks for the same two SKUs and one for one of them and a third, while the first
    /// flight is out: two flights (the pair, then the third SKU alone), and each check gets exactly
    /// its SKUs in its order.
    func test_checksForTheSameSkus_shareOneFlight_andEachGetsItsOwnSkusInItsOrder() {
        var driver = Driver()
        let pair = ["SKU-0001", "SKU-0002"], reversed = ["SKU-0002", "SKU-0001", "SKU-0002"]
        let first = driver.start(pair)
        XCTAssertEqual(first.actions, [.send(Driver.flight(0), skus: pair, timeoutMilliseconds: 5_000)])
        var checks = [first.check], asked = [pair]
        for index in 2...10 {
            driver.advance(ms: 10)
            asked.append(index.isMultiple(of: 2) ? pair : reversed)
            let started = driver.start(asked.last!)
            XCTAssertEqual(started.actions, [], "check \(index) joins the flight out")
            checks.append(started.check)
        }
        let eleventh = driver.start(["SKU-0003", "SKU-0002"])
        XCTAssertEqual(eleventh.actions, [.send(Driver.flight(1), skus: ["SKU-0003"], timeoutMilliseconds: 5_000)],
                       "only the SKU nobody asked yet")
        XCTAssertEqual(driver.table.counters.coalescedJoins, 10)

        driver.advance(ms: 100)
        let landed = driver.answer(Driver.flight(0))
        XCTAssertEqual(Driver.completed(landed), checks, "every check of the pair, oldest first")
        for (check, skus) in zip(checks, asked) {
            XCTAssertEqual(Driver.levels(of: check, in: landed), skus.map { StockLevel(sku: $0, available: Driver.number($0)) })
        }
        XCTAssertEqual(driver.table.state(of: eleventh.check), .waiting, "it still lacks SKU-0003")
        let third = driver.answer(Driver.flight(1))
        XCTAssertEqual(Driver.levels(of: eleventh.check, in: third)?.map(\.available), [3, 2])
        XCTAssertEqual(driver.table.stats.upstreamRequests, 2)
        XCTAssertTrue(driver.table.checks.isEmpty && driver.table.flights.isEmpty)
    }

    /// With the only slot busy, checks that need new flights add their SKUs to the one flight
    /// still queued instead of queueing one each; it goes out with all of them when the slot frees.
    func test_checksQueuedBehindABusySlot_addTheirSkusToTheFlightStillQueued() {
        var driver = Driver { $0.ceiling = 1 }
        let one = driver.start(["SKU-0001"])
        XCTAssertEqual(Driver.sends(one.actions), [Driver.flight(0)])
        let two = driver.start(["SKU-0002"])
        XCTAssertEqual(two.actions, [], "queued: the slot is busy")
        let three = driver.start(["SKU-0003", "SKU-0004"])
        let four = driver.start(["SKU-0004", "SKU-0005", "SKU-0001"])
        XCTAssertEqual(three.actions + four.actions, [])
        XCTAssertEqual(driver.table.flights[Driver.flight(1)]?.skus, ["SKU-0002", "SKU-0003", "SKU-0004", "SKU-0005"])
        XCTAssertEqual(driver.table.flights.count, 2, "one flight out, one queued")
        XCTAssertEqual(driver.table.counters.coalescedJoins, 3,
                       "check 3 joined the queued flight; check 4 joined it (SKU-0004) and the sent one (SKU-0001)")

        driver.advance(ms: 200)
        let landed = driver.answer(Driver.flight(0))
        XCTAssertEqual(Driver.completed(landed), [one.check], "check 4 still lacks SKUs of the queued flight")
        XCTAssertEqual(Driver.sends(landed), [Driver.flight(1)], "the slot is free: the queued flight goes out")
        XCTAssertEqual(landed.last, .send(Driver.flight(1), skus: ["SKU-0002", "SKU-0003", "SKU-0004", "SKU-0005"],
                                          timeoutMilliseconds: 4_800))
        driver.advance(ms: 200)
        let batch = driver.answer(Driver.flight(1))
        XCTAssertEqual(Driver.completed(batch), [two.check, three.check, four.check])
        XCTAssertEqual(Driver.levels(of: four.check, in: batch)?.map(\.sku), ["SKU-0004", "SKU-0005", "SKU-0001"])
        XCTAssertEqual(Driver.levels(of: four.check, in: batch)?.map(\.available), [4, 5, 1])
    }

    /// A queued flight takes at most 100 SKUs (the most one check may ask); the SKUs that would
    /// pass that get a flight of their own, which later checks then fill.
    func test_aQueuedFlight_takesAtMostAHundredSkus() {
        var driver = Driver { $0.ceiling = 1 }
        _ = driver.start(Driver.skus(1))
        _ = driver.start(Driver.skus(100, 60))
        _ = driver.start(Driver.skus(200, 40))
        XCTAssertEqual(driver.table.flights[Driver.flight(1)]?.skus.count, 100)
        let overflowing = driver.start(Driver.skus(300, 2))
        XCTAssertEqual(overflowing.actions, [])
        XCTAssertEqual(driver.table.flights[Driver.flight(1)]?.skus.count, 100, "full")
        XCTAssertEqual(driver.table.flights[Driver.flight(2)]?.skus, Driver.skus(300, 2), "a new queued flight")
        _ = driver.start(Driver.skus(400))
        XCTAssertEqual(driver.table.flights[Driver.flight(2)]?.skus, Driver.skus(300, 2) + Driver.skus(400), "the newest queued one")
        XCTAssertEqual(driver.table.stats.queued, 2)
    }

    /// `--inventory-coalesce off`: every check gets a flight of its own, even for the same SKU.
    func test_withCoalescingOff_everyCheckHasAFlightOfItsOwn() {
        var driver = Driver { $0.coalescing = false; $0.ceiling = 1 }
        _ = driver.start(["SKU-0001"])
        _ = driver.start(["SKU-0001"])
        _ = driver.start(["SKU-0002"])
        XCTAssertEqual(driver.table.flights.count, 3)
        XCTAssertEqual(driver.table.counters.coalescedJoins, 0)
        XCTAssertEqual(driver.table.stats.queued, 2)
    }

    /// A sent flight is joined only while its answer is due before the check's deadline: `recent`
    /// after it was sent, and, once it is older than that, no sooner than its age from now.
    func test_aSentFlight_isJoinedOnlyWhileItsAnswerIsDueBeforeTheChecksDeadline() {
        var driver = Driver()
        _ = driver.start(["SKU-0009"])
        driver.advance(ms: 200)
        _ = driver.answer(Driver.flight(0))  // recent latency: 200 ms
        let slow = driver.start(["SKU-0001"], deadlineMs: 30_000)
        XCTAssertEqual(Driver.sends(slow.actions), [Driver.flight(1)])
        driver.advance(ms: 100)
        let early = driver.start(["SKU-0001"], deadlineMs: 150)
        XCTAssertEqual(early.actions, [], "due at +200 ms, before its deadline at +250 ms: joined")
        let tooShort = driver.start(["SKU-0001"], deadlineMs: 50)
        XCTAssertNotEqual(tooShort.actions, [], "due at +200 ms, after its deadline at +150 ms: not joined")
        XCTAssertEqual(driver.table.counters.coalescedJoins, 1)
        XCTAssertFalse(driver.table.flights[Driver.flight(1)]?.waiters.contains(tooShort.check) ?? true)

        driver.advance(ms: 1_400)  // the flight is 1.5 s old: its answer is not due before +1.5 s
        let afterAge = driver.start(["SKU-0001"], deadlineMs: 1_400)
        XCTAssertFalse(driver.table.flights[Driver.flight(1)]?.waiters.contains(afterAge.check) ?? true)
        let patient = driver.start(["SKU-0001"], deadlineMs: 1_600)
        XCTAssertEqual(patient.actions, [], "1.6 s is enough for an answer due in 1.5 s")
        XCTAssertEqual(driver.table.counters.coalescedJoins, 2)
    }
}
