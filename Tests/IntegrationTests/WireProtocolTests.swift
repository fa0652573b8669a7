import Foundation
import XCTest

/// JSON-RPC 2.0 over the real binary's pipes: framing, ids, batches, errors, deadlines, cancels.
final class WireProtocolTests: XCTestCase {
    func test_ndjson_specificationExamples() throws {
        let server = try ServerProcess()
        server.sendLine(#"{"jsonrpc":"2.0","method":"foobar,"params":"bar","baz]"#)
        XCTAssertEqual((server.readJSON() as? [String: Any])?.errorCode, -32700)
        server.sendLine(#"{"jsonrpc":"2.0","method":1,"params":"bar"}"#)
        let invalid = server.readJSON() as? [String: Any]
        XCTAssertEqual(invalid?.errorCode, -32600)
        XCTAssertTrue(invalid?["id"] is NSNull)
        server.sendLine("[]")
        XCTAssertEqual((server.readJSON() as? [String: Any])?.errorCode, -32600)
        server.sendLine("[1,2,3]")
        let three = server.readJSON() as? [[String: Any]]
        XCTAssertEqual(three?.count, 3)
        XCTAssertEqual(three?.compactMap(\.errorCode), [-32600, -32600, -32600])
        server.sendLine(#"[{"jsonrpc":"2.0","method":"notify_sum","params":[1,2,4]},{"jsonrpc":"2.0","method":"notify_hello","params":[7]}]"#)
        server.sendLine(#"{"jsonrpc":"2.0","method":"no.such.method"}"#)
        server.sendLine(rpc("after", "ping"))
        let after = server.readJSON() as? [String: Any]
        XCTAssertEqual(after?["id"] as? String, "after", "notifications and an all-notification batch produce no output")
        server.sendLine(rpc(1, "no.such.method"))
        let missing = server.readJSON() as? [String: Any]
        XCTAssertEqual(missing?.errorCode, -32601)
        XCTAssertEqual(missing?.errorType, "MethodNotFound")
    }

    func test_ids_areEchoedExactly() throws {
        let server = try ServerProcess()
        for id in ["9007199254740991", "-9007199254740991", "0", #""é😀\"\\""#, "null", #""""#, "1.5"] {
            server.sendLine(#"{"jsonrpc":"2.0","id":\#(id),"method":"ping"}"#)
            let line = server.readLine() ?? ""
            XCTAssertTrue(line.hasPrefix(#"{"jsonrpc":"2.0","id":\#(id),"#), "id \(id) echoed as \(line)")
        }
    }

    func test_batch_repliesInRequestOrder_evenWhenLaterElementsFinishFirst() throws {
        let server = try ServerProcess(["--db", ":memory:", "--simulate-latency", "catalog.get=300"])
        server.sendLine("[" + [rpc(1, "catalog.get", ["sku": "SKU-0001"]), rpc(2, "ping"), rpc(3, "catalog.list", ["limit": 1]),
                               rpc(4, "nope")].joined(separator: ",") + "]")
        let replies = server.readJSON() as? [[String: Any]]
        XCTAssertEqual(replies?.map { $0["id"] as? Int }, [1, 2, 3, 4])
        XCTAssertEqual(replies?[0].result?["sku"] as? String, "SKU-0001")
        XCTAssertEqual(replies?[3].errorCode, -32601)
    }

    func test_lsp_framing_isDetected_andRepliesUseIt() throws {
        let server = try ServerProcess()
        let body = rpc(1, "ping")
        // Written a byte at a time, as a slow editor might.
        for byte in Array("Content-Length: \(body.utf8.count)\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n\(body)".utf8) {
            server.send([byte])
        }
        XCTAssertEqual(server.readFrame(), #"{"jsonrpc":"2.0","id":1,"result":{}}"#)
        server.send("Content-Length: nope\r\n\r\n{}\r\n")
        XCTAssertTrue(server.readFrame()?.contains("FramingError") ?? false)
        let next = rpc(2, "ping")
        server.send("content-length: \(next.utf8.count)\r\n\r\n\(next)")
        XCTAssertEqual(server.readFrame(), #"{"jsonrpc":"2.0","id":2,"result":{}}"#)
    }

    func test_deadline_typedError_withTheMethodsMessage_andOtherCallsUnaffected() throws {
        let server = try ServerProcess(["--db", ":memory:", "--simulate-latency", "inventory.check=60000", "--deadline", "inventory.check=300"])
        server.sendLine(rpc(1, "inventory.check", ["skus": ["SKU-0001"]]))
        server.sendLine(rpc(2, "catalog.get", ["sku": "SKU-0002"]))
        // Both are answered; which leaves first is not promised (a slow call never delays a fast
        // one: test_aSlowCall_doesNotDelayAThousandFastOnes, where the slow one never ends).
        let replies = server.readReplies(2)
        XCTAssertEqual(replies["2"]?.result?["sku"] as? String, "SKU-0002", "the other call is unaffected")
        let timedOut = replies["1"]
        XCTAssertEqual(timedOut?.errorCode, -32001)
        XCTAssertEqual(timedOut?.errorMessage, "Inventory information is temporarily unavailable, please try again later")
        XCTAssertEqual(timedOut?.errorData?["type"] as? String, "DeadlineExceeded")
        XCTAssertEqual(timedOut?.errorData?["method"] as? String, "inventory.check")
        XCTAssertEqual(timedOut?.errorData?["deadlineMs"] as? Int, 300)
        XCTAssertGreaterThanOrEqual(timedOut?.errorData?["elapsedMs"] as? Int ?? 0, 300)
    }

    func test_cancelRequest_overThePipe() throws {
        let server = try ServerProcess(["--db", ":memory:", "--simulate-latency", "catalog.list=60000"])
        server.sendLine(rpc("slow", "catalog.list"))
        server.sendLine(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"slow"}}"#)
        let reply = server.readJSON() as? [String: Any]
        XCTAssertEqual(reply?["id"] as? String, "slow")
        XCTAssertEqual(reply?.errorCode, -32800)
        server.sendLine(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"never-sent"}}"#)
        server.sendLine(rpc(1, "ping"))
        XCTAssertEqual((server.readJSON() as? [String: Any])?["id"] as? Int, 1, "cancelling an unknown id does nothing")
    }

    /// A call with a progress token gets heartbeats while it runs: the call here lasts until the
    /// test has seen two of them and cancels it, so their count does not depend on the machine's pace.
    func test_progressNotifications_forALongCall() throws {
        let server = try ServerProcess(["--db", ":memory:", "--simulate-latency", "catalog.get=60000", "--progress-interval-ms", "50"])
        server.sendLine(#"{"jsonrpc":"2.0","id":1,"method":"catalog.get","params":{"sku":"SKU-0001","_meta":{"progressToken":"p"}}}"#)
        var notifications = 0
        while let message = server.readJSON() as? [String: Any] {
            if message["id"] != nil {
                XCTAssertEqual(message.errorCode, -32800, "cancelled once two heartbeats came: \(message)")
                break
            }
            XCTAssertEqual(message["method"] as? String, "notifications/progress")
            XCTAssertEqual((message["params"] as? [String: Any])?["progressToken"] as? String, "p")
            notifications += 1
            if notifications == 2 { server.sendLine(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}"#) }
        }
        XCTAssertGreaterThanOrEqual(notifications, 2)
    }

    func test_discover_listsEveryShopMethod_withDeadlines() throws {
        let server = try ServerProcess(["--db", ":memory:", "--allow", "read,write,admin"])
        server.sendLine(rpc(1, "rpc.discover"))
        let methods = ((server.readJSON() as? [String: Any])?.result?["methods"] as? [[String: Any]]) ?? []
        let byName = Dictionary(uniqueKeysWithValues: methods.map { ($0["name"] as? String ?? "", $0) })
        for name in ["catalog.list", "catalog.count", "catalog.get", "catalog.product", "catalog.search", "inventory.check", "cart.get", "cart.add", "cart.remove",
                     "cart.clear", "orders.place", "orders.cancel", "orders.get", "orders.list", "admin.stock.adjust", "admin.stock.set",
                     "admin.products.upsert", "admin.products.archive", "admin.search.synonyms.get", "admin.search.synonyms.set"] {
            XCTAssertNotNil(byName[name], name)
        }
        XCTAssertEqual(byName["inventory.check"]?["x-deadlineMs"] as? Int, 5000)
        XCTAssertEqual(byName["orders.place"]?["x-deadlineMs"] as? Int, 30000)
    }

    func test_aSlowCall_doesNotDelayAThousandFastOnes() throws {
        let server = try ServerProcess(["--db", ":memory:", "--simulate-latency", "catalog.search=60000"])
        server.sendLine(rpc("slow", "catalog.search", ["query": "x"]))
        server.send((0..<1000).map { rpc($0, "catalog.get", ["sku": "SKU-0001"]) + "\n" }.joined())
        let replies = server.readReplies(1000)
        XCTAssertEqual(replies.count, 1000)
        XCTAssertNil(replies["slow"])
        server.sendLine(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"slow"}}"#)
        XCTAssertEqual((server.readJSON() as? [String: Any])?.errorCode, -32800)
    }

    /// 10 000 calls through the real binary whose completion (after 0–3 ms of simulated work),
    /// deadline (1–3 ms) and client cancel race; every id is answered exactly once.
    func test_tenThousandRacingCalls_everyIdAnsweredExactlyOnce() throws {
        let server = try ServerProcess(["--db", ":memory:", "--simulate-latency", "catalog.get=2"])
        let total = 10_000
        var input = ""
        for id in 0..<total {
            input += rpc(id, "catalog.get", ["sku": "SKU-0001", "_meta": ["deadlineMs": 1 + id % 3]]) + "\n"
            if id % 4 == 0 { input += #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":\#(id)}}"# + "\n" }
        }
        server.send(input)
        let replies = server.readReplies(total, timeout: 120)
        XCTAssertEqual(replies.count, total)
        for (id, reply) in replies {
            XCTAssertTrue(reply.result != nil || [-32001, -32800].contains(reply.errorCode ?? 0), "id \(id): \(reply)")
        }
        server.closeInput()
        XCTAssertEqual(server.remainingOutput(), "", "no second reply for any id")
        XCTAssertEqual(server.waitForExit(), 0)
    }

    func test_backPressure_manyMoreCallsThanMaxInflight_allAnswered() throws {
        let server = try ServerProcess(["--db", ":memory:", "--max-inflight", "4", "--simulate-latency", "catalog.get=2"])
        server.send((0..<500).map { rpc($0, "catalog.get", ["sku": "SKU-0003"]) + "\n" }.joined())
        let replies = server.readReplies(500)
        XCTAssertEqual(replies.count, 500)
        XCTAssertTrue(replies.values.allSatisfy { $0.result?["sku"] as? String == "SKU-0003" })
    }

    func test_trace_recordsMessagesInAndOut() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try ServerProcess(["--db", ":memory:", "--trace", path])
        server.sendLine(rpc(1, "ping"))
        _ = server.readJSON()
        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let records = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(records.map { $0["dir"] as? String }, ["in", "out"])
        XCTAssertEqual((records.first?["msg"] as? [String: Any])?["method"] as? String, "ping")
        XCTAssertNotNil(records.first?["t"] as? Double)
    }
}
