import Foundation
import XCTest

/// `--customer` through real processes on one store (SQLite file, and PostgreSQL database when a
/// cluster is configured): two customers with the same cart ids, one over NDJSON and one over LSP
/// framing, each see, change and cancel only their own carts and orders, alone and in batches;
/// another customer's order is as unknown as one that does not exist; a server without
/// `--customer` sees them all; nothing a client sends (params, `_meta`) changes the customer.
final class CustomerSessionTests: XCTestCase {
    /// One server and how to talk to it: NDJSON lines or LSP frames.
    private final class Session {
        let server: ServerProcess
        let lsp: Bool
        private var nextId = 0

        init(_ arguments: [String], lsp: Bool = false) throws {
            server = try ServerProcess(arguments + (lsp ? ["--framing", "lsp"] : []))
            self.lsp = lsp
        }

        private func send(_ text: String) {
            if lsp { server.send("Content-Length: \(text.utf8.count)\r\n\r\n\(text)") } else { server.sendLine(text) }
        }

        private func receive() -> Any? {
            if lsp {
                guard let frame = server.readFrame() else { XCTFail("no frame (stderr: \(server.stderrOutput))"); return nil }
                return try? JSONSerialization.jsonObject(with: Data(frame.utf8))
            }
            return server.readJSON()
        }

        /// The reply to one call.
        func call(_ method: String, _ params: [String: Any] = [:]) -> [String: Any] {
            nextId += 1
            send(rpc(nextId, method, params))
            return receive() as? [String: Any] ?? [:]
        }

        /// The replies to one batch, in request order.
        func batch(_ calls: [(String, [String: Any])]) -> [[String: Any]] {
            let requests = calls.map { call -> String in
                nextId += 1
                return rpc(nextId, call.0, call.1)
            }
            send("[" + requests.joined(separator: ",") + "]")
            let replies = receive() as? [[String: Any]] ?? []
            let byId = Dictionary(replies.map { ("\($0["id"] ?? "")", $0) }, uniquingKeysWith: { first, _ in first })
            return (nextId - calls.count + 1...nextId).map { byId["\($0)"] ?? [:] }
        }

        func finish() {
            server.closeInput()
            XCTAssertEqual(server.waitForExit(timeout: 30), 0, server.stderrOutput)
        }
    }

    private func skus(_ reply: [String: Any]) -> [String] {
        (reply.result?["lines"] as? [[String: Any]] ?? []).compactMap { $0["sku"] as? String }
    }

    private func orderIds(_ reply: [String: Any]) -> [String] {
        (reply.result?["items"] as? [[String: Any]] ?? []).compactMap { $0["orderId"] as? String }
    }

    /// Asserts `reply` is the NotFound an unknown order id gets, word for word but for the id.
    private func assertUnknownOrder(_ reply: [String: Any], _ orderId: String, like unknown: [String: Any],
                                    file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(reply.errorCode, 1001, "\(reply)", file: file, line: line)
        XCTAssertEqual(reply.errorType, "NotFound", file: file, line: line)
        XCTAssertNil(reply["result"], file: file, line: line)
        let unknownId = "ord_0000000000000000"
        XCTAssertEqual(reply.errorMessage, unknown.errorMessage?.replacingOccurrences(of: unknownId, with: orderId), file: file, line: line)
        XCTAssertEqual(jsonText(reply.errorData ?? [:]),
                       jsonText(unknown.errorData ?? [:]).replacingOccurrences(of: unknownId, with: orderId), file: file, line: line)
    }

    func test_twoCustomers_sameCartIds_eachSeesChangesAndCancelsOnlyItsOwn_overNDJSONAndLSPAndInBatches_andTheShopSeesAll() throws {
        try CommandStore.forEach { store in
            // An order placed before any customer: it belongs to none, and no customer sees it.
            let shop = try Session(["--db", store.location])
            XCTAssertNotNil(shop.call("cart.add", ["cartId": "c-1", "sku": "SKU-0010", "quantity": 1]).result)
            let legacy = try XCTUnwrap(shop.call("orders.place", ["cartId": "c-1", "idempotencyKey": "k-1"]).result?["orderId"] as? String)
            shop.finish()

            let alice = try Session(["--db", store.location, "--customer", "alice"])
            let bob = try Session(["--db", store.location, "--customer", "bob"], lsp: true)
            XCTAssertEqual(skus(alice.call("cart.add", ["cartId": "c-1", "sku": "SKU-0002", "quantity": 2])), ["SKU-0002"])
            XCTAssertEqual(skus(bob.call("cart.add", ["cartId": "c-1", "sku": "SKU-0008", "quantity": 1])), ["SKU-0008"])
            XCTAssertEqual(skus(alice.call("cart.get", ["cartId": "c-1"])), ["SKU-0002"])
            XCTAssertEqual(skus(bob.call("cart.get", ["cartId": "c-1"])), ["SKU-0008"])

            let aliceOrder = alice.call("orders.place", ["cartId": "c-1", "idempotencyKey": "k-1"]).result
            let bobOrder = bob.call("orders.place", ["cartId": "c-1", "idempotencyKey": "k-1"]).result
            let aliceId = try XCTUnwrap(aliceOrder?["orderId"] as? String)
            let bobId = try XCTUnwrap(bobOrder?["orderId"] as? String)
            XCTAssertNotEqual(aliceId, bobId, "the same key is each customer's own")
            XCTAssertEqual(aliceOrder?["customer"] as? String, "alice")
            XCTAssertEqual(aliceOrder?["cartId"] as? String, "c-1")
            XCTAssertEqual(bobOrder?["customer"] as? String, "bob")

            for session in [alice, bob] {
                let unknown = session.call("orders.get", ["orderId": "ord_0000000000000000"])
                let (own, others) = session === alice ? (aliceId, [bobId, legacy]) : (bobId, [aliceId, legacy])
                for other in others {
                    assertUnknownOrder(session.call("orders.get", ["orderId": other]), other, like: unknown)
                    assertUnknownOrder(session.call("orders.cancel", ["orderId": other]), other, like: unknown)
                }
                XCTAssertEqual(orderIds(session.call("orders.list")), [own])
                XCTAssertEqual(orderIds(session.call("orders.list", ["cartId": "c-1"])), [own])
            }

            // In a batch: alice's own cart (emptied by her order), bob's order unknown, her own listed.
            let batch = alice.batch([("cart.add", ["cartId": "c-2", "sku": "SKU-0004", "quantity": 1]), ("orders.get", ["orderId": bobId]),
                                     ("orders.cancel", ["orderId": bobId]), ("orders.list", [:])])
            XCTAssertEqual(skus(batch[0]), ["SKU-0004"])
            XCTAssertEqual(batch[1].errorCode, 1001)
            XCTAssertEqual(batch[2].errorCode, 1001)
            XCTAssertEqual(orderIds(batch[3]), [aliceId])
            let bobBatch = bob.batch([("cart.get", ["cartId": "c-2"]), ("orders.cancel", ["orderId": bobId]), ("orders.get", ["orderId": aliceId])])
            XCTAssertEqual(skus(bobBatch[0]), [], "alice's c-2 is not bob's")
            XCTAssertEqual(bobBatch[1].result?["status"] as? String, "cancelled")
            XCTAssertEqual(bobBatch[2].errorCode, 1001)
            XCTAssertEqual(alice.call("orders.get", ["orderId": aliceId]).result?["status"] as? String, "placed", "bob's cancels changed nothing of alice's")
            alice.finish()
            bob.finish()

            // A customer's read-only session (read: browse, carts and orders) sees its own.
            let aliceReading = try Session(["--db", store.location, "--customer", "alice", "--read-only"])
            XCTAssertEqual(skus(aliceReading.call("cart.get", ["cartId": "c-2"])), ["SKU-0004"])
            XCTAssertEqual(orderIds(aliceReading.call("orders.list")), [aliceId])
            XCTAssertEqual(aliceReading.call("orders.get", ["orderId": bobId]).errorCode, 1001)
            XCTAssertNotNil(aliceReading.call("catalog.get", ["sku": "SKU-0002"]).result)
            XCTAssertEqual(aliceReading.call("cart.add", ["cartId": "c-2", "sku": "SKU-0004", "quantity": 1]).errorCode, -32601)
            aliceReading.finish()

            // The whole shop, and an operator asking for one customer.
            let operatorSession = try Session(["--db", store.location, "--allow", "read,write,admin"])
            XCTAssertEqual(Set(orderIds(operatorSession.call("orders.list"))), [aliceId, bobId, legacy])
            XCTAssertEqual(orderIds(operatorSession.call("orders.list", ["customer": "alice"])), [aliceId])
            XCTAssertEqual(orderIds(operatorSession.call("orders.list", ["customer": "bob", "cartId": "c-1"])), [bobId])
            XCTAssertEqual(operatorSession.call("orders.get", ["orderId": bobId]).result?["customer"] as? String, "bob")
            XCTAssertEqual(skus(operatorSession.call("cart.get", ["cartId": "c-2"])), [], "the shop's own cart c-2 is not alice's")
            operatorSession.finish()

            let export = try runCommand(["export", "orders", "--db", store.location])
            XCTAssertEqual(export.status, 0, export.stderr)
            let rows = export.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
            XCTAssertEqual(Set(rows.map { "\($0[0]):\($0[3])" }), ["\(legacy):", "\(aliceId):alice", "\(bobId):bob"])
            // The ledger rows of the customers' sessions name them (bob cancelled his order).
            let ledger = try runCommand(["export", "ledger", "--format", "ndjson", "--db", store.location])
            let movements = ledger.stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            let actors = movements.filter { $0["orderId"] as? String == bobId }.map { "\($0["reason"] ?? ""):\($0["actor"] ?? "-")" }
            XCTAssertEqual(actors, ["sale:customer:bob", "cancellation:customer:bob"])
        }
    }

    func test_nothingAClientSends_changesTheCustomer() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shop-customer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("shop.sqlite").path
        let bob = try Session(["--db", database, "--customer", "bob"])
        XCTAssertNotNil(bob.call("cart.add", ["cartId": "c-1", "sku": "SKU-0008", "quantity": 1]).result)
        let bobId = try XCTUnwrap(bob.call("orders.place", ["cartId": "c-1", "idempotencyKey": "k-1"]).result?["orderId"] as? String)
        XCTAssertNotNil(bob.call("cart.add", ["cartId": "c-1", "sku": "SKU-0008", "quantity": 1]).result)
        bob.finish()

        let alice = try Session(["--db", database, "--customer", "alice"])
        let meta: [String: Any] = ["actor": "bob", "customer": "bob"]
        XCTAssertEqual(alice.call("orders.get", ["orderId": bobId, "_meta": meta]).errorCode, 1001)
        XCTAssertEqual(alice.call("orders.cancel", ["orderId": bobId, "_meta": meta, "customer": "bob"]).errorCode.map { $0 == 1001 || $0 == -32602 }, true)
        let listed = alice.call("orders.list", ["customer": "bob"])
        XCTAssertEqual(listed.errorCode, -32602, "a customer's session refuses another customer")
        XCTAssertEqual(orderIds(alice.call("orders.list", ["_meta": meta])), [])
        for cartId in ["c-1", "bob\u{1F}c-1"] {
            let cart = alice.call("cart.get", ["cartId": cartId, "_meta": meta])
            XCTAssertTrue(cart.errorCode != nil || skus(cart).isEmpty, "\(cartId): \(cart)")
        }
        let cart = alice.call("cart.get", ["cartId": "c-1", "customer": "bob"])
        XCTAssertTrue(cart.errorCode != nil || skus(cart).isEmpty, "\(cart)")
        XCTAssertEqual(alice.call("orders.place", ["cartId": "c-1", "idempotencyKey": "k-1", "_meta": meta]).errorType, "CartEmpty",
                       "bob's key in alice's session is not bob's order")
        alice.finish()

        let unbound = try Session(["--db", database, "--allow", "read,write"])
        XCTAssertEqual(unbound.call("orders.list", ["customer": "bob"]).errorCode, -32602, "without the admin scope, refused too")
        unbound.finish()
    }

    func test_customerMCPSession_ordersGetOfAnotherCustomersOrder_isAnErrorResultThatRevealsNothing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shop-customer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("shop.sqlite").path
        let bob = try Session(["--db", database, "--customer", "bob"])
        XCTAssertNotNil(bob.call("cart.add", ["cartId": "c-1", "sku": "SKU-0008", "quantity": 1]).result)
        let bobId = try XCTUnwrap(bob.call("orders.place", ["cartId": "c-1", "idempotencyKey": "k-1"]).result?["orderId"] as? String)
        bob.finish()

        let server = try ServerProcess(["--db", database, "--customer", "alice"])
        server.sendLine(rpc(0, "initialize", ["protocolVersion": "2025-06-18", "capabilities": [String: Any]()]))
        let instructions = (server.readJSON() as? [String: Any])?.result?["instructions"] as? String ?? ""
        XCTAssertTrue(instructions.contains("alice"), instructions)
        server.sendLine(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        server.sendLine(rpc(1, "tools/list"))
        let tools = ((server.readJSON() as? [String: Any])?.result?["tools"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        XCTAssertTrue(tools.contains("orders_get") && tools.contains("orders_cancel"), "\(tools)")
        XCTAssertFalse(tools.contains { $0.hasPrefix("admin_") }, "\(tools)")
        for (id, name) in [(2, "orders_get"), (3, "orders_cancel")] {
            server.sendLine(rpc(id, "tools/call", ["name": name, "arguments": ["orderId": bobId]]))
            let reply = server.readJSON() as? [String: Any] ?? [:]
            let result = reply.result
            XCTAssertEqual(result?["isError"] as? Bool, true, "\(reply)")
            let error = (result?["structuredContent"] as? [String: Any])?["error"] as? [String: Any]
            XCTAssertEqual(error?["code"] as? Int, 1001)
            let text = jsonText(result ?? [:])
            for secret in ["bob", "SKU-0008", "lines", "totalCents", "c-1"] {
                XCTAssertFalse(text.contains(secret), "\(name) reveals \(secret): \(text)")
            }
        }
        server.closeInput()
        XCTAssertEqual(server.waitForExit(timeout: 30), 0, server.stderrOutput)
    }

    func test_badCustomer_orWithTheAdminScope_exitsTwoAtStart_beforeTheStoreIsCreated() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shop-customer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("shop.sqlite").path
        for arguments in [["--customer", ""], ["--customer", "a\u{7}b"], ["--customer", String(repeating: "x", count: 257)],
                          ["--customer", "alice", "--allow", "read,write,admin"], ["--customer", "alice", "--customer", "bob"]] {
            let process = try ServerProcess(["--db", database] + arguments)
            XCTAssertEqual(process.waitForExit(), 2, "\(arguments)")
            XCTAssertTrue(process.stderrOutput.contains("--customer"), "\(arguments) says why: \(process.stderrOutput)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: database), "\(arguments) created no store")
        }
    }
}
