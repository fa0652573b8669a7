import Foundation
import XCTest

/// The inventory client under a slow or failing service (issue #25), against the real service
/// over real TCP and the real binary over real pipes: coalesced requests, the adaptive limit,
/// checks shed at once, marked-stale levels. Each test orders its steps by what the service and
/// the server report (stats, replies), not by sleeping; waits are hang guards.
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
    /// request is out: the service gets two requests (the first pair, then the third SKU alone),
    /// and each check gets exactly its SKUs in its order.
    func test_checksForTheSameSkus_shareOneRequest_andEachGetsItsOwnSkusInItsOrder() throws {
        let service = try startInventoryService()
        let server = try startInventoryServer(["--inventory-url", service.url("/delay/1500")])
        for id in 1...10 {
            server.sendLine(inventoryCheck(id, id.isMultiple(of: 2) ? ["SKU-0001", "SKU-0002"] : ["SKU-0002", "SKU-0001", "SKU-0002"]))
        }
        server.sendLine(inventoryCheck(11, ["SKU-0003", "SKU-0002"]))
        let replies = server.readReplies(11)
        for id in 1...10 {
            let expected = id.isMultiple(of: 2) ? ["SKU-0001", "SKU-0002"] : ["SKU-0002", "SKU-0001", "SKU-0002"]
            let got = levels(replies["\(id)"])
            XCTAssertEqual(got.compactMap { $0["sku"] as? String }, expected, "check \(id)")
            XCTAssertEqual(got.compactMap { $0["available"] as? Int }, expected.map(number), "check \(id)")
            XCTAssertTrue(got.allSatisfy { $0["stale"] == nil && $0["ageMs"] == nil }, "fresh levels carry no stale marks")
        }
        XCTAssertEqual(levels(replies["11"]).compactMap { $0["available"] as? Int }, [3, 2])
        let stats = service.waitForStats { $0.inFlight == 0 }
        XCTAssertEqual(stats?.requests, 2, "one request for SKU-0001/2, one for SKU-0003 alone")
        XCTAssertEqual(stats?.allSkus.sorted(), ["SKU-0001", "SKU-0002", "SKU-0003"], "each SKU asked once")
        XCTAssertEqual(inventoryStats(server)?["coalescedJoins"] as? Int, 10, "nine checks joined the first request, one joined it for SKU-0002")
    }

    /// With the only slot busy, checks that need new requests add their SKUs to the one request
    /// still queued instead of queueing one each: the service gets one request for all of them,
    /// and each check exactly its SKUs, in its order.
    func test_checksQueuedBehindABusySlot_addTheirSkusToTheRequestStillQueued() throws {
        let service = try startInventoryService()
        let server = try startInventoryServer(["--inventory-url", service.url("/delay/2000"), "--inventory-max-concurrent", "1"])
        server.sendLine(inventoryCheck(1, ["SKU-0001"]))
        XCTAssertEqual(service.waitForStats { $0.inFlight == 1 }?.requests, 1)
        let asked = [2: ["SKU-0002"], 3: ["SKU-0003", "SKU-0004"], 4: ["SKU-0004", "SKU-0005", "SKU-0001"]]
        for id in 2...4 { server.sendLine(inventoryCheck(id, asked[id]!)) }
        let replies = server.readReplies(4)
        XCTAssertEqual(levels(replies["1"]).compactMap { $0["available"] as? Int }, [1])
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
        let server = try startInventoryServer(["--inventory-url", service.url("/delay/2000")])
        server.sendLine(inventoryCheck(1, ["SKU-0007"]))
        server.sendLine(inventoryCheck(2, ["SKU-0007"]))
        XCTAssertEqual(service.waitForStats { $0.inFlight == 1 }?.inFlight, 1)
        server.sendLine(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}"#)
        let replies = server.readReplies(2)
        XCTAssertEqual(replies["1"]?.errorCode, -32800, "the cancelled check: \(replies["1"] ?? [:])")
        XCTAssertEqual(levels(replies["2"]).first?["available"] as? Int, 7, "the other check still got the answer")
        let stats = service.waitForStats { $0.inFlight == 0 }
        XCTAssertEqual(stats?.requests, 1)
        XCTAssertEqual(stats?.closedEarly, 0, "the request was not cancelled while check 2 waited on it")

        server.sendLine(inventoryCheck(3, ["SKU-0008"]))
        server.sendLine(inventoryCheck(4, ["SKU-0008"]))
        XCTAssertEqual(service.waitForStats { $0.inFlight == 1 && $0.requests == 2 }?.requests, 2)
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

    /// With one slot and a service known to take 2 s, a third check (two ahead of it, its answer
    /// expected after 6 s) cannot be answered within its 5 s deadline: it is answered at once, shed,
    /// before the first check's answer, and never reaches the service.
    func test_checkThatTheQueueCannotServeInTime_isShedAtOnce_andNeverReachesTheService() throws {
        let service = try startInventoryService()
        let server = try startInventoryServer(["--inventory-url", service.url("/delay/2000"), "--inventory-max-concurrent", "1"])
        server.sendLine(inventoryCheck(1, ["SKU-0001"]))  // measures the latency
        XCTAssertEqual(levels(server.readJSON(timeout: 30) as? [String: Any]).first?["available"] as? Int, 1)
        server.sendLine(inventoryCheck(2, ["SKU-0002"]))
        server.sendLine(inventoryCheck(3, ["SKU-0003"]))
        server.sendLine(inventoryCheck(4, ["SKU-0004"]))
        let first = try XCTUnwrap(server.readJSON(timeout: 30) as? [String: Any])
        XCTAssertEqual(first["id"] as? Int, 4, "the shed check is answered first, before check 2's 2 s answer: \(first)")
        XCTAssertEqual(first.errorCode, -32001)
        XCTAssertEqual(first.errorType, "DeadlineExceeded")
        XCTAssertEqual(first.errorMessage, "Inventory information is temporarily unavailable, please try again later")
        XCTAssertEqual(first.errorData?["shed"] as? Bool, true, "\(first)")
        let rest = server.readReplies(2)
        XCTAssertEqual(levels(rest["2"]).first?["available"] as? Int, 2)
        XCTAssertNotNil(rest["3"], "check 3 is answered too, one way or the other")
        let stats = service.waitForStats { $0.inFlight == 0 }
        XCTAssertFalse(stats?.allSkus.contains("SKU-0004") ?? true, "the shed check never reached the service")
        XCTAssertEqual(inventoryStats(server)?["shed"] as? Int, 1)
    }

    /// A check queued in time that the service then became too slow for: when its request reaches
    /// the front of the queue, the latency measured lately (1.75 s: 1 s, then a 4 s answer) is
    /// more than the second it has left, so it is shed then — not sent, and not left to fail at its
    /// deadline as before.
    func test_checkTooLateForTheLatencyWhenItsRequestReachesTheFront_isShedThen_andNeverReachesTheService() throws {
        let service = try startInventoryService()
        service.setSwitch("delay 1000")
        let server = try startInventoryServer(["--inventory-url", service.url("/switch"), "--inventory-max-concurrent", "1"])
        server.sendLine(inventoryCheck(1, ["SKU-0001"]))  // measures the latency: 1 s
        XCTAssertEqual(levels(server.readJSON(timeout: 30) as? [String: Any]).first?["available"] as? Int, 1)
        service.setSwitch("delay 4000")
        // Check 3's answer is predicted at about 2 s (one request ahead, 1 s each), within its 5 s.
        server.sendLine(inventoryCheck(2, ["SKU-0002"], deadlineMs: 30000))
        XCTAssertEqual(service.waitForStats { $0.inFlight == 1 && $0.requests == 2 }?.lastSkus, ["SKU-0002"], "check 2 holds the only slot")
        server.sendLine(inventoryCheck(3, ["SKU-0003"], deadlineMs: 5000))
        let replies = server.readReplies(2)
        XCTAssertEqual(levels(replies["2"]).first?["available"] as? Int, 2)
        let shed = try XCTUnwrap(replies["3"])
        XCTAssertEqual(shed.errorCode, -32001, "\(shed)")
        XCTAssertEqual(shed.errorMessage, "Inventory information is temporarily unavailable, please try again later")
        XCTAssertEqual(shed.errorData?["shed"] as? Bool, true, "shed when its request reached the front: \(shed)")
        let stats = service.waitForStats { $0.inFlight == 0 }
        XCTAssertEqual(stats?.allSkus, ["SKU-0001", "SKU-0002"], "the shed check never reached the service")
        let inventory = inventoryStats(server)
        XCTAssertEqual(inventory?["shed"] as? Int, 1)
        XCTAssertEqual(inventory?["notSentTooLate"] as? Int, 1, "its request was not sent")
    }

    /// The service answered in 200 ms, then sits on a request. A check for the same SKU with a 1 s
    /// deadline, sent once that request is 1.5 s old, neither joins it (its answer cannot be
    /// expected sooner than it has been out already) nor is sent (the service is taken to need at
    /// least that long now): it is shed at once instead of failing at its deadline.
    func test_requestOutLongerThanTheRecentLatency_isNotJoined_andItsAgeCountsAsTheLatency() throws {
        let service = try startInventoryService()
        service.setSwitch("delay 200")
        let server = try startInventoryServer(["--inventory-url", service.url("/switch")])
        server.sendLine(inventoryCheck(1, ["SKU-0001"]))  // measures the latency: 200 ms
        XCTAssertEqual(levels(server.readJSON(timeout: 30) as? [String: Any]).first?["available"] as? Int, 1)
        service.setSwitch("delay 60000")
        server.sendLine(inventoryCheck(2, ["SKU-0001"], deadlineMs: 30000))
        XCTAssertEqual(service.waitForStats { $0.inFlight == 1 && $0.requests == 2 }?.requests, 2)
        usleep(1_500_000)  // lets the request grow older than check 3's whole deadline
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
    /// number); a check half covered by a good request and half by a failed one says so per level;
    /// the open circuit answers stale too; near the deadline of a slow request, stale levels are given.
    func test_staleLevels_areMarkedWithTheirAge_perLevel_andNeverInvented() throws {
        let service = try startInventoryService()
        let server = try startInventoryServer(["--inventory-url", service.url("/switch"), "--inventory-stale-ms", "60000",
                                               "--inventory-circuit-cooldown-ms", "600000"])
        server.sendLine(inventoryCheck(1, ["SKU-0002"]))
        XCTAssertEqual(levels(server.readJSON() as? [String: Any]).first?["available"] as? Int, 2)
        let freshAt = Date()

        // A check waiting on a slow good request (SKU-0001) and a failing one (SKU-0002).
        service.setSwitch("delay 1500")
        server.sendLine(inventoryCheck(2, ["SKU-0001"]))
        // Check 2's request, not check 1's: the service counts a request in flight until its
        // handler returns, which may be after shop-rpc has relayed the answer.
        XCTAssertEqual(service.waitForStats { $0.inFlight == 1 && $0.requests == 2 }?.inFlight, 1)
        service.setSwitch("status 503")
        server.sendLine(inventoryCheck(3, ["SKU-0001", "SKU-0002"]))
        server.sendLine(inventoryCheck(4, ["SKU-0002", "SKU-0099"]))
        let replies = server.readReplies(3)
        let elapsedMs = Int(Date().timeIntervalSince(freshAt) * 1000)
        XCTAssertEqual(levels(replies["2"]).first?["available"] as? Int, 1)
        let mixed = levels(replies["3"])
        XCTAssertEqual(mixed.count, 2)
        XCTAssertEqual(mixed.first?["sku"] as? String, "SKU-0001")
        XCTAssertEqual(mixed.first?["available"] as? Int, 1)
        XCTAssertNil(mixed.first?["stale"], "SKU-0001 came fresh from the slow request")
        XCTAssertEqual(mixed.last?["sku"] as? String, "SKU-0002")
        XCTAssertEqual(mixed.last?["available"] as? Int, 2, "the level the service gave before")
        XCTAssertEqual(mixed.last?["stale"] as? Bool, true)
        let age = try XCTUnwrap(mixed.last?["ageMs"] as? Int)
        XCTAssertTrue((0...(elapsedMs + 1000)).contains(age), "age \(age) ms, \(elapsedMs) ms since the fresh answer")
        XCTAssertEqual(replies["4"]?.errorCode, 1009, "SKU-0099 was never answered: no stale level to give")

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
