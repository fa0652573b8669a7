import XCTest
@testable import ShopAPI

/// `InventoryFlightTable` on a manual clock: checks that cannot be answered before their deadline
/// are shed at once (when they start, or when their flight reaches the front of the queue) instead
/// of failing at the deadline; the cases the peak benchmark found (#25).
final class InventoryFlightTableSheddingTests: XCTestCase {
    private typealias Driver = FlightTableDriver

    /// A driver with one slot whose service was measured at `latencyMs` (one flight answered).
    private func measured(_ latencyMs: UInt64, _ configure: (inout InventoryFlightTable.Configuration) -> Void = { _ in }) -> Driver {
        var driver = Driver {
            $0.ceiling = 1
            configure(&$0)
        }
        _ = driver.start(["SKU-0999"], deadlineMs: 60_000)
        driver.advance(ms: latencyMs)
        _ = driver.answer(Driver.flight(0))
        return driver
    }

    private func isShed(_ result: Result<InventoryLevels, ShopError>?) -> Bool {
        if case .failure(.inventoryShed)? = result { return true }
        return false
    }

    func test_beforeAnyLatencyIsMeasured_nothingIsShed() {
        var driver = Driver { $0.ceiling = 1 }
        for index in 1...5 {
            XCTAssertEqual(Driver.completed(driver.start(Driver.skus(index), deadlineMs: 100).actions), [])
        }
        XCTAssertEqual(driver.table.counters.shed, 0)
    }

    /// One slot, a service measured at 2 s, three checks with 5 s deadlines at once: the first is
    /// sent, the second queued (answer expected in 4 s, plus the margin: 4.5 s), the third shed at
    /// once (6 s) with the queue's length in its detail, and never sent. Whichever check is third.
    func test_aCheckTheQueueCannotServeInTime_isShedAtOnce_andNeverSent() {
        for order in [[2, 3, 4], [4, 3, 2], [3, 4, 2]] {
            var driver = measured(2_000)
            var started: [Int: (check: FlightTableDriver.Check, actions: [FlightTableDriver.Action])] = [:]
            for index in order { started[index] = driver.start(Driver.skus(index)) }
            let (first, second, third) = (order[0], order[1], order[2])
            XCTAssertEqual(Driver.sends(started[first]!.actions).count, 1, "\(order)")
            XCTAssertEqual(started[second]!.actions, [], "queued: \(order)")
            let detail = "the inventory service is too busy to answer before the deadline (1 requests queued)"
            XCTAssertEqual(started[third]!.actions, [.complete(started[third]!.check, .failure(.inventoryShed(detail: detail)))],
                           "shed at once: \(order)")
            XCTAssertEqual(driver.table.counters.shed, 1)

            driver.advance(ms: 2_000)
            let landed = driver.answer(Driver.flight(1))
            XCTAssertEqual(Driver.completed(landed), [started[first]!.check])
            XCTAssertEqual(landed.last, .send(Driver.flight(2), skus: Driver.skus(second), timeoutMilliseconds: 3_000),
                           "the second goes out with 3 s left, enough for a 2 s answer")
            XCTAssertFalse(driver.table.flights.values.contains { $0.skus.contains(Driver.skus(third)[0]) }, "never sent")
        }
    }

    /// The margin: an answer predicted within a quarter of the latency of the deadline is shed.
    func test_aCheckPredictedWithinAQuarterOfTheLatencyOfItsDeadline_isShed() {
        var driver = measured(1_000)
        XCTAssertEqual(Driver.sends(driver.start(Driver.skus(1), deadlineMs: 1_250).actions).count, 1,
                       "a free slot: answer at +1 s, +1.25 s with the margin, not after the deadline")
        var second = measured(1_000)
        XCTAssertTrue(isShed(Driver.result(of: FlightTableDriver.check(1), in: second.start(Driver.skus(1), deadlineMs: 1_249).actions)))
        XCTAssertEqual(second.table.counters.shed, 1)
    }

    /// A check queued in time that the service then became too slow for: when its flight reaches
    /// the front, the recent latency (1.75 s: 1 s, then a 4 s answer) is more than the second it
    /// has left, so it is shed then, and its flight is not sent.
    func test_aCheckTooLateForTheLatencyWhenItsFlightReachesTheFront_isShedThen_andNotSent() {
        var driver = measured(1_000)
        let two = driver.start(["SKU-0002"], deadlineMs: 30_000)
        XCTAssertEqual(Driver.sends(two.actions), [Driver.flight(1)])
        let three = driver.start(["SKU-0003"], deadlineMs: 5_000)
        XCTAssertEqual(three.actions, [], "answer predicted in 2 s (one flight ahead): queued")
        driver.advance(ms: 4_000)
        let landed = driver.answer(Driver.flight(1))
        let detail = "the inventory service answers in about 1750 ms, after this check's deadline"
        XCTAssertEqual(landed, [.complete(two.check, .success(InventoryLevels(levels: [StockLevel(sku: "SKU-0002", available: 2)]))),
                                .complete(three.check, .failure(.inventoryShed(detail: detail)))])
        XCTAssertEqual(driver.table.counters.shed, 1)
        XCTAssertEqual(driver.table.counters.notSentTooLate, 1, "its flight was not sent")
        XCTAssertEqual(driver.table.counters.upstreamRequests, 2)
        XCTAssertTrue(driver.table.flights.isEmpty)
    }

    /// At the front, only the waiters too late for the expected answer are shed; the others are sent.
    func test_atTheFront_onlyTheWaitersTooLateAreShed_theFlightGoesOutForTheOthers() {
        var driver = measured(1_000)
        _ = driver.start(["SKU-0002"], deadlineMs: 30_000)
        let patient = driver.start(["SKU-0003"], deadlineMs: 30_000)
        driver.advance(ms: 500)
        let hurried = driver.start(["SKU-0003"], deadlineMs: 4_000)
        XCTAssertEqual(hurried.actions, [], "joins the queued flight")
        driver.advance(ms: 3_500)
        let landed = driver.answer(Driver.flight(1))  // recent: 1.75 s; the hurried check has 0.5 s left
        XCTAssertTrue(isShed(Driver.result(of: hurried.check, in: landed)))
        XCTAssertEqual(Driver.sends(landed), [Driver.flight(2)])
        XCTAssertEqual(driver.table.flights[Driver.flight(2)]?.waiters, [patient.check])
    }

    /// A request the service sits on counts as the latency once it is older than the recent one:
    /// a check that would join it past its deadline is not joined, and, the service taken to need
    /// at least that long now, is shed at once (f7fd565).
    func test_aRequestOutLongerThanTheRecentLatency_isNotJoined_andItsAgeCountsAsTheLatency() {
        var driver = Driver()
        _ = driver.start(["SKU-0009"])
        driver.advance(ms: 200)
        _ = driver.answer(Driver.flight(0))
        _ = driver.start(["SKU-0001"], deadlineMs: 30_000)
        driver.advance(ms: 1_500)
        let late = driver.start(["SKU-0001"], deadlineMs: 1_000)
        XCTAssertEqual(driver.table.expectedLatencyNs(), Double(1_500 * Driver.ms), "the age of the oldest request out, not the recent 200 ms")
        XCTAssertTrue(isShed(Driver.result(of: late.check, in: late.actions)), "\(late.actions)")
        XCTAssertEqual(Driver.sends(late.actions), [], "never reaches the service")
        XCTAssertEqual(driver.table.counters.coalescedJoins, 0)
        XCTAssertEqual(driver.table.counters.shed, 1)
        let other = driver.start(["SKU-0002"], deadlineMs: 1_800)
        XCTAssertTrue(isShed(Driver.result(of: other.check, in: other.actions)), "1.5 s plus the margin is past 1.8 s")
        let roomy = driver.start(["SKU-0002"], deadlineMs: 2_000)
        XCTAssertEqual(Driver.sends(roomy.actions).count, 1, "1.5 s plus the margin is before 2 s")
    }

    /// A flight dropped at the front of the queue does not hide the age of the one sent after it.
    func test_theAgeOfTheOldestRequestOut_countsAfterAFlightWasDroppedAtTheFront() {
        var driver = measured(100) { $0.coalescing = false }
        _ = driver.start(["SKU-0001"], deadlineMs: 60_000)
        _ = driver.start(["SKU-0002"], deadlineMs: 1_000)
        _ = driver.start(["SKU-0003"], deadlineMs: 60_000)
        driver.advance(ms: 950)
        let landed = driver.answer(Driver.flight(1))
        XCTAssertTrue(isShed(Driver.result(of: FlightTableDriver.check(2), in: landed)), "dropped at the front: too late")
        XCTAssertEqual(Driver.sends(landed), [Driver.flight(3)])
        driver.advance(ms: 2_000)
        let late = driver.start(["SKU-0004"], deadlineMs: 2_400)
        XCTAssertEqual(driver.table.expectedLatencyNs(), Double(2_000 * Driver.ms), "flight 3 has been out 2 s")
        XCTAssertTrue(isShed(Driver.result(of: late.check, in: late.actions)))
    }

    /// A finished request gives its slot back only after its latency sample is recorded, so the
    /// flight let out next is judged by it (66b47d1): 50 checks queued behind a first request
    /// before any latency was known, with 1.5 s deadlines; the first answer takes 1 s, so none of
    /// them can be answered in time, and all are shed when it lands, none sent.
    func test_theSlotIsGivenBackOnlyAfterTheSampleIsRecorded_soTheQueuedFlightIsJudgedByIt() {
        var driver = Driver { $0.ceiling = 1 }
        let first = driver.start(["SKU-0001"], deadlineMs: 1_500)
        var queued: [FlightTableDriver.Check] = []
        for index in 2...51 { queued.append(driver.start(Driver.skus(index), deadlineMs: 1_500).check) }
        XCTAssertEqual(driver.table.stats.queued, 1, "batched into one queued flight")
        driver.advance(ms: 1_000)
        let landed = driver.answer(Driver.flight(0))
        XCTAssertEqual(Driver.completed(landed), [first.check] + queued)
        XCTAssertTrue(queued.allSatisfy { isShed(Driver.result(of: $0, in: landed)) })
        XCTAssertEqual(Driver.sends(landed), [])
        XCTAssertEqual(driver.table.counters.shed, 50)
        XCTAssertEqual(driver.table.stats.inFlight, 0)
    }

    /// A flight that reaches the front after every waiter's latest useful start is not sent, and
    /// (adaptive limit) its waiters are shed then.
    func test_aFlightTooLateForEveryWaiter_isNotSent_andItsWaitersAreShed() {
        var driver = Driver { $0.ceiling = 1 }
        _ = driver.start(["SKU-0001"], deadlineMs: 60_000)
        let hurried = driver.start(["SKU-0002"], deadlineMs: 1_000)
        driver.advance(ms: 950)  // 50 ms left: less than the 100 ms worth sending for
        let landed = driver.answer(Driver.flight(0))
        let detail = "the inventory service's queue did not reach this check in time"
        XCTAssertEqual(Driver.result(of: hurried.check, in: landed), .failure(.inventoryShed(detail: detail)))
        XCTAssertEqual(Driver.sends(landed), [])
        XCTAssertEqual(driver.table.counters.notSentTooLate, 1)
        XCTAssertEqual(driver.table.counters.shed, 1)
    }

    /// The fixed limit sheds nothing: a flight admitted too late is not sent, its check waits for
    /// its deadline (`waitingForDeadline`), and the slot goes to the next flight.
    func test_fixedLimit_aFlightAdmittedTooLate_isNotSent_andItsCheckWaitsForItsDeadline() {
        var driver = Driver { $0.ceiling = 1; $0.adaptiveLimit = false }
        let a = driver.start(["SKU-0001"], deadlineMs: 1_000)
        let b = driver.start(["SKU-0002"], deadlineMs: 1_000)
        XCTAssertEqual(b.actions, [])
        driver.advance(ms: 1_000)
        XCTAssertEqual(driver.interrupt(a.check), [.cancel(Driver.flight(0)), .complete(a.check, .failure(.interrupted))])
        driver.advance(ms: 1)
        let ended = driver.cancelled(Driver.flight(0))
        XCTAssertEqual(ended, [], "B's flight reached the front after its latest useful start: not sent, and B not answered")
        XCTAssertEqual(driver.table.state(of: b.check), .waitingForDeadline)
        XCTAssertEqual(driver.table.counters.notSentTooLate, 1)
        XCTAssertEqual(driver.table.counters.shed, 0)
        XCTAssertEqual(driver.interrupt(b.check), [.complete(b.check, .failure(.interrupted))])
        let c = driver.start(["SKU-0003"], deadlineMs: 300)
        XCTAssertEqual(c.actions, [.send(Driver.flight(2), skus: ["SKU-0003"], timeoutMilliseconds: 300)], "the slot was given back")
    }

    /// Shed checks are answered from stale levels when every SKU has one.
    func test_aShedCheck_isAnsweredFromStaleLevels_whenAllowed() {
        var driver = measured(2_000) { $0.staleMilliseconds = 60_000 }
        _ = driver.start(["SKU-0002"])
        _ = driver.start(["SKU-0003"])
        let stale = driver.start(["SKU-0999"])
        XCTAssertEqual(Driver.levels(of: stale.check, in: stale.actions), [StockLevel(sku: "SKU-0999", available: 999, ageMs: 0)])
        XCTAssertEqual(driver.table.counters.shed, 1)
        XCTAssertEqual(driver.table.counters.staleAnswers, 1)
    }
}
