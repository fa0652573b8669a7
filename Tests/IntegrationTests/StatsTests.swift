import Foundation
import XCTest

/// `rpc.stats` over real pipes with the real binary: the figures are exactly what the test did.
final class StatsTests: XCTestCase {
    private func stats(_ server: ServerProcess, id: String) throws -> [String: Any] {
        server.sendLine(rpc(id, "rpc.stats"))
        let reply = try XCTUnwrap(server.readJSON() as? [String: Any])
        XCTAssertEqual(reply["id"] as? String, id)
        return try XCTUnwrap(reply.result)
    }

    private func method(_ stats: [String: Any], _ name: String) -> [String: Any] {
        (stats["methods"] as? [String: Any])?[name] as? [String: Any] ?? [:]
    }

    /// Every count but the latencies, which are checked for order and sign only.
    private func counts(_ method: [String: Any]) -> NSDictionary {
        var counts = method
        counts["latencyMs"] = nil
        return counts as NSDictionary
    }

    func test_stats_matchOkErrorDeadlineCancelAndInFlight_exactly() throws {
        let server = try ServerProcess(["--db", ":memory:", "--simulate-latency", "inventory.check=6000"])
        for (index, sku) in ["SKU-0001", "SKU-0002", "SKU-0003", "SKU-NOPE"].enumerated() {
            server.sendLine(rpc(index, "catalog.get", ["sku": sku]))
        }
        let replies = server.readReplies(4)
        XCTAssertEqual(replies["3"]?.errorCode, 1001)
        server.sendLine(rpc("late", "inventory.check", ["skus": ["SKU-0001"], "_meta": ["deadlineMs": 100]]))
        XCTAssertEqual((server.readJSON() as? [String: Any])?.errorCode, -32001)
        server.sendLine(rpc("held", "inventory.check", ["skus": ["SKU-0002"]]))

        let during = try stats(server, id: "s1")
        XCTAssertEqual(method(during, "inventory.check")["calls"] as? Int, 2)
        XCTAssertEqual(method(during, "inventory.check")["inFlight"] as? Int, 1)

        server.sendLine(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"held"}}"#)
        let cancelled = server.readJSON() as? [String: Any]
        XCTAssertEqual(cancelled?["id"] as? String, "held")
        XCTAssertEqual(cancelled?.errorCode, -32800)

        let after = try stats(server, id: "s2")
        XCTAssertEqual(counts(method(after, "catalog.get")), [
            "calls": 4, "ok": 3, "errors": ["1001": 1], "deadlineExpiries": 0, "cancels": 0, "inFlight": 0,
        ] as NSDictionary)
        XCTAssertEqual(counts(method(after, "inventory.check")), [
            "calls": 2, "ok": 0, "errors": ["-32001": 1, "-32800": 1], "deadlineExpiries": 1, "cancels": 1, "inFlight": 0,
        ] as NSDictionary)
        for name in ["catalog.get", "inventory.check"] {
            let latency = method(after, name)["latencyMs"] as? [String: Any]
            let p50 = try XCTUnwrap(latency?["p50"] as? Double, name)
            let p99 = try XCTUnwrap(latency?["p99"] as? Double, name)
            XCTAssertTrue(0 <= p50 && p50 <= p99, "\(name): p50 \(p50), p99 \(p99)")
        }
        XCTAssertEqual(counts(method(after, "orders.place")), [
            "calls": 0, "ok": 0, "errors": [:] as [String: Int], "deadlineExpiries": 0, "cancels": 0, "inFlight": 0,
        ] as NSDictionary)
        XCTAssertNil((after["methods"] as? [String: Any])?["rpc.stats"], "rpc.stats does not count itself")
        XCTAssertNotNil(after["sections"] as? [String: Any])
        XCTAssertGreaterThanOrEqual(after["uptimeMs"] as? Int ?? -1, 0)

        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0)
    }

    func test_mcpSession_doesNotListRPCStatsAsATool() throws {
        let server = try ServerProcess()
        server.sendLine(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}"#)
        _ = server.readJSON()
        server.sendLine(rpc(1, "tools/list"))
        let tools = ((server.readJSON() as? [String: Any])?.result?["tools"] as? [[String: Any]]) ?? []
        let names = tools.compactMap { $0["name"] as? String }
        XCTAssertTrue(names.contains("catalog_get"), "\(names)")
        XCTAssertFalse(names.contains { $0.hasPrefix("rpc") }, "\(names)")
        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0)
    }
}
