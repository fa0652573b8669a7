import Foundation
import XCTest

/// The inventory client under a slow or failing service (issue #25), against the real service
/// over real TCP and the real binary over real pipes: coalesced requests, the adaptive limit,
/// checks shed, marked-stale levels. Each test orders its steps by what the service and the server
/// report (stats, replies), and holds requests at the service (`/hold`, `release()`) where an
/// answer must not come before a step; waits are hang guards. What depends on time (when a check
/// is shed, joins a request, or the limit moves) is decided by `InventoryFlightTable`, whose unit
/// tests (ShopAPITests) run on a manual clock; these tests assert what a client can rely on, never
/// which of two racing replies comes first.
final class InventoryPeakLoadTests: XCTestCase {
    private func levels(_ reply: [String: Any]?, file: StaticString = #filePath, line: UInt = #line) -> [[String: Any]] {
        guard let levels = reply?.result?["levels"] as? [[String: Any]] else {
            XCTFail("not a result: \(reply ?? [:])", file: file, line: line)
            return []
        }
        return levels
    }

    /// The test service's number for a SKU: the digits in it.
    private func number(_ sku: String) -> Int { Int(sku.filter(\.isNumber)) ?? 0 }

    // MARK: - Coalescing

    /// Ten checks for the same two SKUs and one for one of them and a third, all while the first
    /// request is held at the service: the service gets two requests (the first pair, then the
    /// third SKU alone), and each check gets exactly its SKUs in its order.
    func test_checksForTheSameSkus_shareOneRequest_andEachGetsItsOwnSkusInItsOrder() throws {
        let service = try startInventoryService()
        let server = try startInventoryServer(["--inventory-url", service.url("/hold"), "--deadline", "inventory.check=60000"])
        let pair = ["SKU-0001", "SKU-0002"], reversed = ["SKU-0002", "SKU-0001", "SKU-0002"]
        server.sendLine(inventoryCheck(1, pair))
        XCTAssertEqual(service.waitForStats { $0.held == 1 }?.held, 1)
        for id in 2...10 { server.sendLine(inventoryCheck(id, id.isMultiple(of: 2) ? pair : reversed)) }
        server.sendLine(inventoryCheck(11, ["SKU-0003", "SKU-0002"]))
        let joined = waitForInventoryStats(server) { $0["coalescedJoins"] as? Int == 10 && $0["upstreamRequests"] as? Int == 2 }
        XCTAssertEqual(joined?["coalescedJoins"] as? Int, 10, "nine checks joined the first request, one joined it for SKU-0002")
        XCTAssertEqual(service.waitForStats { $0.held == 2 }?.held, 2)
        service.release()
        let replies = server.readReplies(11)
        for id in 1...10 {
            let expected = id == 1 || id.isMultiple(of: 2) ? pair : reversed
            let got = levels(replies["\(id)"])
            XCTAssertEqual(got.compactMap { $0["sku"] as? String }, expected, "check \(id)")
            XCTAssertEqual(got.compactMap { $0["available"] as? Int }, expected.map(number), "check \(id)")
            XCTAssertTrue(got.allSatisfy { $0["stale"] == nil && $0["ageMs"] == nil }, "fresh levels carry no stale marks")
        }
        XCTAssertEqual(levels(replies["11"]).compactMap { $0["available"] as? Int }, [3, 2])
        let stats = service.waitForStats { $0.inFlight == 0 }
        XCTAssertEqual(stats?.requests, 2, "one request for SKU-0001/2, one for SKU-0003 alone")
        XCTAssertEqual(stats?.allSkus.sorted(), ["SKU-0001", "SKU-0002", "SKU-0003"], "each SKU asked once")
    }

    /// With the only slot busy (its request held at the service), checks that need new requests
    /// add their SKUs to the one request still queued instead of queueing one each: the service gets
    /// one request for all of them, and each check exactly its SKUs, in its order.
    func test_checksQueuedBehindABusySlot_addTheirSkusToTheRequestStillQueued() throws {
        let service = try startInventoryService()
        let server = try startInventoryServer(["--inventory-url", service.url("/hold"), "--inventory-max-concurrent", "1",
                                               "--deadline", "inventory.check=60000"])
        server.sendLine(inventoryCheck(1, ["SKU-0001"]))
        XCTAssertEqual(service.waitForStats { $0.held == 1 }?.requests, 1)
        let asked = [2: ["SKU-0002"], 3: ["SKU-0003", "SKU-0004"], 4: ["SKU-0004", "SKU-0005", "SKU-0001"]]
        for id in 2...4 { server.sendLine(inventoryCheck(id, asked[id]!)) }
        let queued = waitForInventoryStats(server) { $0["coalescedJoins"] as? Int == 3 }
        XCTAssertEqual(queued?["queued"] as? Int, 1, "one request queued for the three checks")
        service.release()
        XCTAssertEqual(levels(server.readJSON(timeout: 30) as? [String: Any]).compactMap { $0["available"] as? Int }, [1])
        XCTAssertEqual(service.waitForStats { $0.held == 1 }?.requests, 2, "the queued request went out when the slot was free")
        service.release()
        let replies = server.readReplies(3)
        for id in 2...4 {
            let got = levels(replies["\(id)"])
            XCTAssertEqual(got.compactMap { $0["sku"] as? String }, asked[id], "check \(id)")
            XCTAssertEqual(got.compactMap { $0["available"] as? Int }, asked[id]!.map(number), "check \(id)")
        }
        let stats = service.waitForStats { $0.inFlight == 0 }
        XCTAssertEqual(stats?.requests, 2, "SKU-0001, then one request for every SKU the queued checks lacked")
        // The checks start on the work queue concurrently, so the SKUs' order in the request is theirs.
        XCTAssertEqual(stats?.lastSkus.sorted(), ["SKU-0002", "SKU-0003", "SKU-0004", "SKU-0005"], "each asked once")
        XCTAssertEqual(inventoryStats(server)?["coalescedJoins"] as? Int, 3,
                       "check 3 joined the queued request; check 4 joined it (SKU-0004) and the sent one (SKU-0001)")
    }

    /// A check that leaves (its client cancels) does not cancel a request another check still
    /// waits on; when the last one leaves, the request is cancelled and its connection closed.
    func test_sharedRequest_isCancelledOnlyWhenNoCheckWaitsOnItAnyMore() throws {
        let service = try startInventoryService()
        let server = try startInventoryServer(["--inventory-url", service.url("/hold"), "--deadline", "inventory.check=60000"])
        server.sendLine(inventoryCheck(1, ["SKU-0007"]))
        server.sendLine(inventoryCheck(2, ["SKU-0007"]))
        XCTAssertEqual(service.waitForStats { $0.held == 1 }?.held, 1)
        _ = waitForInventoryStats(server) { $0["coalescedJoins"] as? Int == 1 }
        server.sendLine(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}"#)
        XCTAssertEqual((server.readJSON(timeout: 30) as? [String: Any])?.errorCode, -32800, "the cancelled check")
        service.release()
        XCTAssertEqual(levels(server.readJSON(timeout: 30) as? [String: Any]).first?["available"] as? Int, 7, "the other check still got the answer")
        let stats = service.waitForStats { $0.inFlight == 0 }
        XCTAssertEqual(stats?.requests, 1)
        XCTAssertEqual(stats?.closedEarly, 0, "the request was not cancelled while check 2 waited on it")

        server.sendLine(inventoryCheck(3, ["SKU-0008"]))
        server.sendLine(inventoryCheck(4, ["SKU-0008"]))
        XCTAssertEqual(service.waitForStats { $0.held == 1 }?.requests, 2)
        _ = waitForInventoryStats(server) { $0["coalescedJoins"] as? Int == 2 }
        server.sendLine(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":3}}"#)
        server.sendLine(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":4}}"#)
        XCTAssertEqual(server.readReplies(2).values.map(\.errorCode), [-32800, -32800])
        XCTAssertEqual(service.waitForStats { $0.closedEarly == 1 }?.closedEarly, 1, "both left: the request was cancelled")
    }

    // MARK: - Adaptive limit and shedding

    /// The limit (ceiling 8) shrinks while the service answers in 800 ms after answering in 100, and
    /// grows back to the ceiling once it is fast again; the service never sees more than 8.
    func test_adaptiveLimit_shrinksAsTheServiceSlows_andGrowsBack() throws {
        let service = try startInventoryService()
        service.setSwitch("delay 100")
        let server = try startInventoryServer(["--inventory-url", service.url("/switch"), "--inventory-max-concurrent", "8"])
        var next = 0
        func wave(_ count: Int) {
            let first = next + 1
            for _ in 0..<count {
                next += 1
                server.sendLine(inventoryCheck(next, [String(format: "SKU-%04d", next)]))
            }
            let replies = server.readReplies(count)
            for id in first...next {
                let reply = replies["\(id)"]
                if let found = reply?.result?["levels"] as? [[String: Any]] {
                    XCTAssertEqual(found.first?["available"] as? Int, id, "the service's number")
                } else {
                    XCTAssertEqual(reply?.errorCode, -32001, "a check is answered or shed: \(reply ?? [:])")
                }
            }
        }
        wave(16)
        let steady = inventoryStats(server)
        XCTAssertEqual(steady?["limit"] as? Int, 8, "a fast service keeps the ceiling: \(steady ?? [:])")
        service.setSwitch("delay 800")
        wave(24)
        let slow = try XCTUnwrap(inventoryStats(server))
        let shrunk = try XCTUnwrap(slow["limit"] as? Int)
        XCTAssertLessThan(shrunk, 8, "the limit shrank while the service took 8× longer: \(slow)")
        XCTAssertGreaterThanOrEqual(shrunk, 1)
        XCTAssertGreaterThan(slow["latencyRecentMs"] as? Int ?? 0, 400, "\(slow)")
        service.setSwitch("delay 100")
        // Waves of 8 (checks beyond the limit share one queued request) until the limit is back.
        var fast = try XCTUnwrap(inventoryStats(server))
        var waves = 0
        while fast["limit"] as? Int != 8, waves < 40 {
            wave(8)
            waves += 1
            fast = try XCTUnwrap(inventoryStats(server))
        }
        XCTAssertEqual(fast["limit"] as? Int, 8, "back to the ceiling once the service is fast again (\(waves) waves): \(fast)")
        XCTAssertLessThanOrEqual(service.stats()?.maxInFlight ?? .max, 8)
    }

    /// With one slot and a service known to take 2 s, three checks with 5 s deadlines at once: they
    /// cannot all be answered in time (the third answer would come after 6 s), so whichever starts
    /// last is shed (-32001, `data.shed`, the inventory message) and never reaches the service. The
    /// others are answered with the service's numbers, or end -32001 at their deadline on a machine
    /// too slow for them; no reply order is assumed. (When each is shed is decided on a manual
    /// clock in `InventoryFlightTableSheddingTests`.)
    func test_checksTheQueueCannotServeInTime_areShed_neverReachTheService_andTheRestAreAnswered() throws {
        let service = try startInventoryService()
        let server = try startInventoryServer(["--inventory-url", service.url("/delay/2000"), "--inventory-max-concurrent", "1"])
        server.sendLine(inventoryCheck(1, ["SKU-0001"]))  // measures the latency
        XCTAssertEqual(levels(server.readJSON(timeout: 30) as? [String: Any]).first?["available"] as? Int, 1)
        for id in 2...4 { server.sendLine(inventoryCheck(id, [String(format: "SKU-%04d", id)])) }
        let replies = server.readReplies(3)
        var shedSkus: [String] = []
        for id in 2...4 {
            let reply = try XCTUnwrap(replies["\(id)"], "every check is answered")
            if let result = reply.result?["levels"] as? [[String: Any]] {
                XCTAssertEqual(result.first?["available"] as? Int, id, "a result is the service's number")
                continue
            }
            XCTAssertEqual(reply.errorCode, -32001, "\(reply)")
            XCTAssertEqual(reply.errorType, "DeadlineExceeded")
            XCTAssertEqual(reply.errorMessage, "Inventory information is temporarily unavailable, please try again later")
            if reply.errorData?["shed"] as? Bool == true { shedSkus.append(String(format: "SKU-%04d", id)) }
        }
        XCTAssertGreaterThanOrEqual(shedSkus.count, 1, "the check started last cannot be answered in time: shed")
        let stats = service.waitForStats { $0.inFlight == 0 }
        XCTAssertTrue(Set(shedSkus).isDisjoint(with: stats?.allSkus ?? shedSkus), "a shed check never reached the service")
        XCTAssertLessThanOrEqual(stats?.maxInFlight ?? .max, 1, "never above the ceiling")
        XCTAssertEqual(inventoryStats(server)?["shed"] as? Int, shedSkus.count)
    }

    /// A check queued in time that the service then became too slow for (1 s, then a 4 s answer
    /// ahead of it): it cannot be answered within its 5 s, and it never reaches the service; it ends
    /// -32001 with the inventory message, shed (when its request reaches the front, on any machine
    /// that runs the step within a second) or at its deadline. The exact decision is
    /// `InventoryFlightTableSheddingTests.test_aCheckTooLateForTheLatencyWhenItsFlightReachesTheFront_isShedThen_andNotSent`.
    func test_checkTooLateForTheLatencyWhenItsRequestReachesTheFront_endsAtOnceOrAtItsDeadline_andNeverReachesTheService() throws {
        let service = try startInventoryService()
        service.setSwitch("delay 1000")
        let server = try startInventoryServer(["--inventory-url", service.url("/switch"), "--inventory-max-concurrent", "1"])
        server.sendLine(inventoryCheck(1, ["SKU-0001"]))  // measures the latency: 1 s
        XCTAssertEqual(levels(server.readJSON(timeout: 30) as? [String: Any]).first?["available"] as? Int, 1)
        service.setSwitch("delay 4000")
        server.sendLine(inventoryCheck(2, ["SKU-0002"], deadlineMs: 30000))
        let holding = service.waitForStats { $0.requests == 2 && $0.inFlight == 1 }
        XCTAssertEqual(holding?.lastSkus, ["SKU-0002"], "check 2 holds the only slot")
        server.sendLine(inventoryCheck(3, ["SKU-0003"], deadlineMs: 5000))
        let replies = server.readReplies(2)
        XCTAssertEqual(levels(replies["2"]).first?["available"] as? Int, 2)
        let late = try XCTUnwrap(replies["3"])
        XCTAssertEqual(late.errorCode, -32001, "\(late)")
        XCTAssertEqual(late.errorMessage, "Inventory information is temporarily unavailable, please try again later")
        let stats = service.waitForStats { $0.inFlight == 0 }
        XCTAssertEqual(stats?.allSkus, ["SKU-0001", "SKU-0002"], "check 3 never reached the service")
        let inventory = inventoryStats(server)
        XCTAssertEqual(inventory?["shed"] as? Int, late.errorData?["shed"] as? Bool == true ? 1 : 0, "stats count the shed reply")
    }

    /// The service answered in 200 ms, then holds a request. A check for the same SKU with a 1 s
    /// deadline, sent once that request is 1.5 s old, neither joins it (its answer cannot be
    /// expected sooner than it has been out already) nor is sent (the service is taken to need at
    /// least that long now): it is shed at once instead of failing at its deadline.
    func test_requestOutLongerThanTheRecentLatency_isNotJoined_andItsAgeCountsAsTheLatency() throws {
        let service = try startInventoryService()
        service.setSwitch("delay 200")
        let server = try startInventoryServer(["--inventory-url", service.url("/switch")])
        server.sendLine(inventoryCheck(1, ["SKU-0001"]))  // measures the latency: 200 ms
        XCTAssertEqual(levels(server.readJSON(timeout: 30) as? [String: Any]).first?["available"] as? Int, 1)
        service.setSwitch("hold")
        server.sendLine(inventoryCheck(2, ["SKU-0001"], deadlineMs: 30000))
        XCTAssertEqual(service.waitForStats { $0.held == 1 }?.requests, 2)
        // The request must be older than check 3's whole deadline: a lower bound on elapsed time,
        // which no scheduling delay can shorten (the decision itself is unit-tested on a manual clock).
        usleep(1_500_000)
        server.sendLine(inventoryCheck(3, ["SKU-0001"], deadlineMs: 1000))
        let shed = try XCTUnwrap(server.readJSON(timeout: 30) as? [String: Any])
        XCTAssertEqual(shed["id"] as? Int, 3, "\(shed)")
        XCTAssertEqual(shed.errorCode, -32001, "\(shed)")
        XCTAssertEqual(shed.errorData?["shed"] as? Bool, true, "shed at once, not at its deadline: \(shed)")
        XCTAssertEqual(service.stats()?.requests, 2, "check 3 never reached the service")
        let inventory = inventoryStats(server)
        XCTAssertEqual(inventory?["coalescedJoins"] as? Int, 0, "check 3 did not join the request the service sits on")
        XCTAssertEqual(inventory?["shed"] as? Int, 1)
    }

    // MARK: - Marked-stale answers

    /// With `--inventory-stale-ms`: while the service fails, a SKU it answered before is answered
    /// from that level, marked stale with its age; a SKU it never answered fails (never an invented
    /// number); a check half covered by a held good request and half by a failed one says so per
    /// level; the open circuit answers stale too.
    func test_staleLevels_areMarkedWithTheirAge_perLevel_andNeverInvented() throws {
        let service = try startInventoryService()
        let server = try startInventoryServer(["--inventory-url", service.url("/switch"), "--inventory-stale-ms", "60000",
                                               "--inventory-circuit-cooldown-ms", "600000", "--deadline", "inventory.check=60000"])
        server.sendLine(inventoryCheck(1, ["SKU-0002"]))
        XCTAssertEqual(levels(server.readJSON() as? [String: Any]).first?["available"] as? Int, 2)
        let freshAt = Date()

        // A check waiting on a held good request (SKU-0001) and a failing one (SKU-0002).
        service.setSwitch("hold")
        server.sendLine(inventoryCheck(2, ["SKU-0001"]))
        XCTAssertEqual(service.waitForStats { $0.held == 1 }?.requests, 2)
        service.setSwitch("status 503")
        server.sendLine(inventoryCheck(3, ["SKU-0001", "SKU-0002"]))
        server.sendLine(inventoryCheck(4, ["SKU-0002", "SKU-0099"]))
        XCTAssertEqual((server.readJSON(timeout: 30) as? [String: Any])?.errorCode, 1009, "SKU-0099 was never answered: no stale level to give")
        // Check 3 joins the held request for SKU-0001 as it starts (the first join there can be;
        // check 4 may also join check 3's request for SKU-0002, or not if that one already failed).
        XCTAssertNotNil(waitForInventoryStats(server) { ($0["coalescedJoins"] as? Int ?? 0) >= 1 })
        service.release()
        let replies = server.readReplies(2)
        let elapsedMs = Int(Date().timeIntervalSince(freshAt) * 1000)
        XCTAssertEqual(levels(replies["2"]).first?["available"] as? Int, 1)
        let mixed = levels(replies["3"])
        XCTAssertEqual(mixed.count, 2)
        XCTAssertEqual(mixed.first?["sku"] as? String, "SKU-0001")
        XCTAssertEqual(mixed.first?["available"] as? Int, 1)
        XCTAssertNil(mixed.first?["stale"], "SKU-0001 came fresh from the held request")
        XCTAssertEqual(mixed.last?["sku"] as? String, "SKU-0002")
        XCTAssertEqual(mixed.last?["available"] as? Int, 2, "the level the service gave before")
        XCTAssertEqual(mixed.last?["stale"] as? Bool, true)
        let age = try XCTUnwrap(mixed.last?["ageMs"] as? Int)
        XCTAssertTrue((0...(elapsedMs + 1000)).contains(age), "age \(age) ms, \(elapsedMs) ms since the fresh answer")

        // Five failures after check 2's success open the circuit; an open circuit answers stale as well.
        for id in 5...9 {
            server.sendLine(inventoryCheck(id, ["SKU-0002"]))
            XCTAssertEqual(levels(server.readJSON() as? [String: Any]).first?["stale"] as? Bool, true, "check \(id)")
        }
        let requestsBefore = service.stats()?.requests
        server.sendLine(inventoryCheck(10, ["SKU-0002"]))
        XCTAssertEqual(levels(server.readJSON() as? [String: Any]).first?["available"] as? Int, 2)
        XCTAssertEqual(service.stats()?.requests, requestsBefore, "the open circuit did not ask the service")
        let stats = try XCTUnwrap(inventoryStats(server))
        XCTAssertEqual(stats["circuit"] as? String, "open", "\(stats)")
        XCTAssertEqual(stats["staleAnswers"] as? Int, 7, "checks 3 and 5–10")
        XCTAssertEqual(stats["staleLevels"] as? Int, 7)
    }

    /// A request slower than the deadline: shortly before the deadline the check is answered from
    /// the stale level instead of -32001, and the request is cancelled.
    func test_staleLevels_answerACheckNearItsDeadline_whenTheServiceIsTooSlow() throws {
        let service = try startInventoryService()
        let server = try startInventoryServer(["--inventory-url", service.url("/switch"), "--inventory-stale-ms", "60000"])
        server.sendLine(inventoryCheck(1, ["SKU-0005"]))
        XCTAssertEqual(levels(server.readJSON() as? [String: Any]).first?["available"] as? Int, 5)
        service.setSwitch("delay 60000")
        server.sendLine(inventoryCheck(2, ["SKU-0005"], deadlineMs: 2000))
        let level = levels(server.readJSON() as? [String: Any]).first
        XCTAssertEqual(level?["available"] as? Int, 5)
        XCTAssertEqual(level?["stale"] as? Bool, true)
        XCTAssertEqual(service.waitForStats { $0.closedEarly == 1 }?.closedEarly, 1, "the slow request was cancelled")
    }
}
