import Foundation
import XCTest

/// The shop through the real binary, as users drive it, on SQLite and (when configured) on
/// PostgreSQL.
final class ShopSessionTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("shop-rpc-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `body` with each `--db` value the session is checked on: a fresh SQLite file, then a
    /// fresh PostgreSQL database when `scripts/with-postgres` configured a cluster (the same
    /// session through both stores). A thrown error names the store.
    private func forEachDatabase(file: StaticString = #filePath, line: UInt = #line, _ body: (String) throws -> Void) throws {
        do {
            try body(directory.appendingPathComponent("shop.sqlite").path)
        } catch {
            XCTFail("on sqlite: \(error)", file: file, line: line)
        }
        guard ProcessInfo.processInfo.environment[PostgreSQLScratchDatabase.environmentKey]?.isEmpty == false else { return }
        let database = try PostgreSQLScratchDatabase()
        defer { database.drop() }
        do {
            try body(database.uri)
        } catch {
            XCTFail("on postgres: \(error)", file: file, line: line)
        }
    }

    /// Sends one request and waits for its reply.
    private func call(_ server: ServerProcess, _ id: Any, _ method: String, _ params: [String: Any]? = nil,
                      file: StaticString = #filePath, line: UInt = #line) -> [String: Any] {
        server.sendLine(rpc(id, method, params))
        return server.readJSON(file: file, line: line) as? [String: Any] ?? [:]
    }

    private func available(_ server: ServerProcess, _ sku: String) -> Int {
        let reply = call(server, "stock-\(sku)", "inventory.check", ["skus": [sku]])
        return ((reply.result?["levels"] as? [[String: Any]])?.first?["available"] as? Int) ?? -1
    }

    func test_fullSession_browse_addToCart_checkInventory_placeOrder_readItBack() throws {
        try forEachDatabase { databasePath in
            let server = try ServerProcess(["--db", databasePath])
            let page = call(server, 1, "catalog.list", ["limit": 5, "category": "coffee"])
            let items = page.result?["items"] as? [[String: Any]] ?? []
            XCTAssertEqual(items.count, 5)
            XCTAssertNotNil(page.result?["nextCursor"] as? String)
            let sku = try XCTUnwrap(items.first?["sku"] as? String)
            let price = try XCTUnwrap(items.first?["priceCents"] as? Int)
            let search = call(server, 2, "catalog.search", ["query": "COFFEE"])
            XCTAssertFalse((search.result?["items"] as? [Any] ?? []).isEmpty)
            let before = available(server, sku)
            let cart = call(server, 3, "cart.add", ["cartId": "s1", "sku": sku, "quantity": 2])
            XCTAssertEqual(cart.result?["totalCents"] as? Int, 2 * price)
            let order = call(server, 4, "orders.place", ["cartId": "s1", "idempotencyKey": "session-1"])
            let orderId = try XCTUnwrap(order.result?["orderId"] as? String)
            XCTAssertEqual(order.result?["status"] as? String, "placed")
            XCTAssertEqual(order.result?["totalCents"] as? Int, 2 * price)
            XCTAssertEqual(available(server, sku), before - 2)
            XCTAssertEqual((call(server, 5, "cart.get", ["cartId": "s1"]).result?["lines"] as? [Any])?.count, 0, "the order emptied the cart")
            let readBack = call(server, 6, "orders.get", ["orderId": orderId])
            XCTAssertEqual(readBack.result?["orderId"] as? String, orderId)
            let listed = call(server, 7, "orders.list", ["cartId": "s1"])
            XCTAssertEqual((listed.result?["items"] as? [[String: Any]])?.first?["orderId"] as? String, orderId)
        }
    }

    /// `orders.cancel` over the pipes: restocks once, answers a repeat (also after a restart) with
    /// the same cancelled order, and an unknown order with NotFound.
    func test_cancel_restocksOnce_repeatsAnswerTheSameOrder_alsoAfterARestart() throws {
        try forEachDatabase { databasePath in
            var server = try ServerProcess(["--db", databasePath])
            let before = available(server, "SKU-0008")
            _ = call(server, 1, "cart.add", ["cartId": "x1", "sku": "SKU-0008", "quantity": 4])
            let order = try XCTUnwrap(call(server, 2, "orders.place", ["cartId": "x1", "idempotencyKey": "cancel-me"]).result)
            let orderId = try XCTUnwrap(order["orderId"] as? String)
            XCTAssertEqual(available(server, "SKU-0008"), before - 4)
            let cancelled = try XCTUnwrap(call(server, 3, "orders.cancel", ["orderId": orderId, "reason": "customer", "_meta": ["actor": "ops:dana"]]).result)
            XCTAssertEqual(cancelled["status"] as? String, "cancelled")
            XCTAssertEqual(cancelled["cancelReason"] as? String, "customer")
            XCTAssertNotNil(cancelled["cancelledAt"] as? String)
            XCTAssertEqual(available(server, "SKU-0008"), before)
            XCTAssertEqual(NSDictionary(dictionary: try XCTUnwrap(call(server, 4, "orders.cancel", ["orderId": orderId]).result)), NSDictionary(dictionary: cancelled))
            server.closeInput()
            XCTAssertEqual(server.waitForExit(), 0)

            server = try ServerProcess(["--db", databasePath])
            XCTAssertEqual(NSDictionary(dictionary: try XCTUnwrap(call(server, 5, "orders.cancel", ["orderId": orderId]).result)), NSDictionary(dictionary: cancelled))
            XCTAssertEqual(NSDictionary(dictionary: try XCTUnwrap(call(server, 6, "orders.get", ["orderId": orderId]).result)), NSDictionary(dictionary: cancelled))
            XCTAssertEqual(available(server, "SKU-0008"), before)
            let unknown = call(server, 7, "orders.cancel", ["orderId": "ord_0000000000000000"])
            XCTAssertEqual(unknown.errorCode, 1001)
            XCTAssertEqual((unknown["error"] as? [String: Any]).flatMap { $0["data"] as? [String: Any] }?["entity"] as? String, "order")
            server.closeInput()
            XCTAssertEqual(server.waitForExit(), 0)
        }
    }

    /// `admin.stock.adjust` and `admin.stock.set` over the pipes: typed refusals that change
    /// nothing, and a compare-and-set that sees another process's change.
    func test_adminStock_adjustAndCompareAndSet_acrossTwoProcesses() throws {
        try forEachDatabase { databasePath in
            let first = try ServerProcess(["--db", databasePath, "--allow", "read,write,admin"])
            let second = try ServerProcess(["--db", databasePath, "--allow", "read,write,admin"])
            let before = available(first, "SKU-0012")
            XCTAssertEqual(call(first, 1, "admin.stock.adjust", ["sku": "SKU-0012", "delta": 8, "reason": "received"]).result?["available"] as? Int, before + 8)
            let refused = call(second, 2, "admin.stock.adjust", ["sku": "SKU-0012", "delta": -(before + 9), "reason": "damaged"])
            XCTAssertEqual(refused.errorCode, 1011, "\(refused)")
            XCTAssertEqual((refused["error"] as? [String: Any]).flatMap { $0["data"] as? [String: Any] }?["available"] as? Int, before + 8)
            // The second process read the level, the first changes it: the second's set is refused.
            XCTAssertEqual(call(first, 3, "admin.stock.set", ["sku": "SKU-0012", "available": 30, "expected": before + 8]).result?["available"] as? Int, 30)
            let stale = call(second, 4, "admin.stock.set", ["sku": "SKU-0012", "available": 99, "expected": before + 8])
            XCTAssertEqual(stale.errorCode, 1012, "\(stale)")
            XCTAssertEqual((stale["error"] as? [String: Any]).flatMap { $0["data"] as? [String: Any] }?["available"] as? Int, 30)
            XCTAssertEqual(available(second, "SKU-0012"), 30)
            XCTAssertEqual(call(second, 5, "admin.stock.set", ["sku": "SKU-9999", "available": 1]).errorCode, 1001)
            XCTAssertEqual(call(second, 6, "admin.stock.adjust", ["sku": "SKU-0012", "delta": 0, "reason": "other"]).errorCode, -32602)
            for server in [first, second] {
                server.closeInput()
                XCTAssertEqual(server.waitForExit(), 0)
            }
        }
    }

    /// `admin.products.upsert` and `admin.products.archive` over the pipes: the import's summary,
    /// its rules' errors naming each product, and a product archived, refused to a cart, and
    /// brought back by listing it again.
    func test_adminProducts_upsertAndArchive() throws {
        try forEachDatabase { databasePath in
            let server = try ServerProcess(["--db", databasePath, "--allow", "read,write,admin"])
            let upserted = call(server, 1, "admin.products.upsert", ["products": [
                ["sku": "TEA-1", "name": "Green Tea Tin", "category": "tea", "priceCents": 899, "stock": 30],
                ["sku": "SKU-0010", "name": "Renamed Product"],
            ], "_meta": ["actor": "ops:dana"]])
            XCTAssertEqual(upserted.result as NSDictionary?,
                           ["rows": 2, "created": 1, "updated": 1, "unchanged": 0, "archived": 0, "stockSet": 1] as NSDictionary)
            XCTAssertEqual(call(server, 2, "catalog.get", ["sku": "TEA-1"]).result?["name"] as? String, "Green Tea Tin")

            let rejected = call(server, 3, "admin.products.upsert", ["products": [
                ["sku": "TEA-2", "name": "No Price", "category": "tea"],
                ["sku": "TEA-3", "name": "Negative", "category": "tea", "priceCents": -1],
            ]])
            XCTAssertEqual(rejected.errorCode, -32602, "\(rejected)")
            let data = try XCTUnwrap((rejected["error"] as? [String: Any])?["data"] as? [String: Any])
            XCTAssertEqual(data["field"] as? String, "products[0].priceCents")
            XCTAssertEqual((data["errors"] as? [[String: Any]])?.map { $0["field"] as? String }, ["products[0].priceCents", "products[1].priceCents"])
            XCTAssertEqual(call(server, 4, "catalog.get", ["sku": "TEA-2"]).errorCode, 1001, "nothing was written")

            XCTAssertEqual(call(server, 5, "admin.products.archive", ["skus": ["TEA-1"]]).result as NSDictionary?, ["archived": 1] as NSDictionary)
            XCTAssertEqual(call(server, 6, "cart.add", ["cartId": "t", "sku": "TEA-1", "quantity": 1]).errorCode, 1001)
            XCTAssertEqual(call(server, 7, "admin.products.archive", ["skus": ["TEA-1", "NOPE-9"]]).errorCode, 1001)
            XCTAssertEqual(call(server, 8, "admin.products.upsert", ["products": [["sku": "TEA-1"]]]).result?["updated"] as? Int, 1)
            XCTAssertEqual(available(server, "TEA-1"), 30, "archiving kept its stock")
            server.closeInput()
            XCTAssertEqual(server.waitForExit(), 0)
        }
    }

    func test_idempotentRetry_returnsTheSameOrder_withoutASecondDecrement_alsoAfterARestart() throws {
        try forEachDatabase { databasePath in
            var server = try ServerProcess(["--db", databasePath])
            let before = available(server, "SKU-0007")
            _ = call(server, 1, "cart.add", ["cartId": "r1", "sku": "SKU-0007", "quantity": 3])
            let first = call(server, 2, "orders.place", ["cartId": "r1", "idempotencyKey": "retry-key"])
            let retry = call(server, 3, "orders.place", ["cartId": "r1", "idempotencyKey": "retry-key"])
            XCTAssertEqual(first.result?["orderId"] as? String, retry.result?["orderId"] as? String)
            XCTAssertEqual(available(server, "SKU-0007"), before - 3)
            server.closeInput()
            XCTAssertEqual(server.waitForExit(), 0)
            server = try ServerProcess(["--db", databasePath])
            let afterRestart = call(server, 4, "orders.place", ["cartId": "r1", "idempotencyKey": "retry-key"])
            XCTAssertEqual(afterRestart.result?["orderId"] as? String, first.result?["orderId"] as? String)
            XCTAssertEqual(available(server, "SKU-0007"), before - 3)
        }
    }

    func test_outOfStock_isATypedShopError() throws {
        try forEachDatabase { databasePath in
            let server = try ServerProcess(["--db", databasePath])
            _ = call(server, 1, "cart.add", ["cartId": "o1", "sku": "SKU-0013", "quantity": 1])  // seeded with no stock
            let reply = call(server, 2, "orders.place", ["cartId": "o1", "idempotencyKey": "oos"])
            XCTAssertEqual(reply.errorCode, 1002)
            XCTAssertEqual(reply.errorType, "OutOfStock")
            XCTAssertEqual(reply.errorData?["sku"] as? String, "SKU-0013")
            XCTAssertEqual(reply.errorData?["requested"] as? Int, 1)
            XCTAssertEqual(reply.errorData?["available"] as? Int, 0)
            XCTAssertEqual(call(server, 3, "orders.place", ["cartId": "empty", "idempotencyKey": "e"]).errorType, "CartEmpty")
            XCTAssertEqual(call(server, 4, "catalog.get", ["sku": "SKU-NOPE"]).errorType, "NotFound")
            let badLimit = call(server, 5, "catalog.list", ["limit": 500])
            XCTAssertEqual(badLimit.errorCode, -32602)
            XCTAssertEqual(badLimit.errorData?["field"] as? String, "limit")
        }
    }

    /// Processes started together on one new SQLite file all open it (one migrates and seeds it)
    /// and answer: none fails with "database is locked", which switching a new file to WAL could
    /// give without waiting (before: about 1 start in 130 failed, 4 at a time; here 48 starts).
    func test_processesStartedTogetherOnANewSQLiteFile_allOpenIt() throws {
        for round in 0..<12 {
            let path = directory.appendingPathComponent("new-\(round).sqlite").path
            let servers = try (0..<4).map { _ in try ServerProcess(["--db", path]) }
            for server in servers { server.sendLine(rpc("ready", "catalog.get", ["sku": "SKU-0001"])) }
            for (index, server) in servers.enumerated() {
                let reply = server.readReplies(1, timeout: 30)["ready"]
                XCTAssertNotNil(reply?.result, "round \(round), process \(index): \(reply ?? [:]) \(server.stderrOutput)")
                server.closeInput()
                XCTAssertEqual(server.waitForExit(), 0)
            }
        }
    }

    func test_twoProcesses_orderingTheLastItems_neverOversell() throws {
        try forEachDatabase { databasePath in
            let sku = "SKU-0021"
            let setup = try ServerProcess(["--db", databasePath])
            let stock = available(setup, sku)
            XCTAssertGreaterThan(stock, 0)
            setup.closeInput()
            XCTAssertEqual(setup.waitForExit(), 0)

            let attemptsPerProcess = stock + 5  // together, more than twice what there is
            let servers = try (0..<2).map { _ in try ServerProcess(["--db", databasePath]) }
            for (p, server) in servers.enumerated() {
                server.send((0..<attemptsPerProcess).map { rpc("add-\($0)", "cart.add", ["cartId": "p\(p)-\($0)", "sku": sku, "quantity": 1]) + "\n" }.joined())
            }
            for server in servers { XCTAssertEqual(server.readReplies(attemptsPerProcess).count, attemptsPerProcess) }
            // Now both processes place every order at once.
            for (p, server) in servers.enumerated() {
                server.send((0..<attemptsPerProcess).map { rpc("order-\($0)", "orders.place", ["cartId": "p\(p)-\($0)", "idempotencyKey": "p\(p)-\($0)"]) + "\n" }.joined())
            }
            var placed = 0
            var outOfStock = 0
            for server in servers {
                for reply in server.readReplies(attemptsPerProcess).values {
                    if reply.result != nil { placed += 1 } else if reply.errorType == "OutOfStock" { outOfStock += 1 }
                }
            }
            XCTAssertEqual(placed, stock, "exactly the stock was sold")
            XCTAssertEqual(outOfStock, 2 * attemptsPerProcess - stock)
            XCTAssertEqual(available(servers[0], sku), 0)
        }
    }

    func test_kill9_duringAStreamOfOrders_losesNoAcknowledgedOrder_andStockAddsUp() throws {
        try forEachDatabase { databasePath in
            let sku = "SKU-0042"
            var server = try ServerProcess(["--db", databasePath])
            let initial = available(server, sku)
            let carts = min(initial, 60)
            server.send((0..<carts).map { rpc("add-\($0)", "cart.add", ["cartId": "k\($0)", "sku": sku, "quantity": 1]) + "\n" }.joined())
            XCTAssertEqual(server.readReplies(carts).count, carts)
            server.send((0..<carts).map { rpc("order-\($0)", "orders.place", ["cartId": "k\($0)", "idempotencyKey": "k\($0)"]) + "\n" }.joined())
            var acknowledged: [String] = []
            for _ in 0..<(carts / 2) {
                guard let reply = server.readJSON() as? [String: Any], let orderId = reply.result?["orderId"] as? String else { break }
                acknowledged.append(orderId)
            }
            kill(server.process.processIdentifier, SIGKILL)
            _ = server.waitForExit()
            XCTAssertEqual(acknowledged.count, carts / 2)

            server = try ServerProcess(["--db", databasePath])
            for (index, orderId) in acknowledged.enumerated() {
                XCTAssertEqual(call(server, "get-\(index)", "orders.get", ["orderId": orderId]).result?["orderId"] as? String, orderId)
            }
            var stored = 0
            var cursor: String?
            repeat {
                var params: [String: Any] = ["limit": 200]
                if let cursor { params["cursor"] = cursor }
                let page = call(server, "list", "orders.list", params)
                stored += (page.result?["items"] as? [Any])?.count ?? 0
                cursor = page.result?["nextCursor"] as? String
            } while cursor != nil
            XCTAssertGreaterThanOrEqual(stored, acknowledged.count)
            XCTAssertEqual(available(server, sku), initial - stored, "every stored order took exactly its stock")
        }
    }
}
