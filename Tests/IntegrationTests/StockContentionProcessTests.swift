import Foundation
import XCTest

/// Four real `shop-rpc` processes on one store (one SQLite file; one PostgreSQL database) placing
/// orders, cancelling orders (each from two processes at once) and adjusting stock on the same few
/// SKUs, all at once, over pipes, each call carrying its process's `_meta.actor`: afterwards no level is
/// negative, every cancelled order was restocked exactly once, and for every SKU the stock
/// ledger's deltas, as `shop-rpc export ledger` writes them, add up to its level (each row
/// following the one before). Nothing here waits for
/// time to pass: every reply is awaited, and the checks hold whatever order the processes ran in.
final class StockContentionProcessTests: XCTestCase {
    private static let hotSKUs = ["SKU-0041", "SKU-0042", "SKU-0043"]
    private static let initialStock = 40
    private static let processes = 4
    private static let oldOrdersPerProcess = 4
    private static let newOrdersPerProcess = 8
    private static let adjustsPerProcess = 8

    private var database: PostgreSQLScratchDatabase?

    override func tearDown() {
        database?.drop()
        super.tearDown()
    }

    func test_placeCancelAndAdjust_fromFourProcessesOnOneSQLiteFile_ledgerAddsUp_nothingNegative() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stock-contention-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("shop.sqlite").path
        try runContention(store: ["--db", file]) { sql in try sqliteShell(file, sql) }
    }

    func test_placeCancelAndAdjust_fromFourProcessesOnOnePostgreSQLDatabase_ledgerAddsUp_nothingNegative() throws {
        let database = try PostgreSQLScratchDatabase()
        self.database = database
        let session = try PostgreSQLTestSession(uri: database.uri)
        try runContention(store: ["--db", database.uri, "--db-pool", "6"]) { sql in try XCTUnwrap(session.query(sql)) }
    }

    /// `sql` runs one statement on the store's database and returns its rows as `a|b|c` lines.
    private func runContention(store: [String], sql: (String) throws -> String) throws {
        let servers = try (0..<Self.processes).map { _ in try ServerProcess(store + ["--allow", "read,write,admin"]) }
        defer { servers.forEach { $0.closeInput() } }
        for server in servers {  // every process has opened (and one migrated) the store
            server.sendLine(rpc("ready", "ping"))
            XCTAssertNotNil(server.readReplies(1)["ready"])
        }
        let skuList = Self.hotSKUs.map { "'\($0)'" }.joined(separator: ",")
        _ = try sql("UPDATE stock SET available = \(Self.initialStock) WHERE sku IN (\(skuList))")
        let actor = (0..<Self.processes).map { "proc-\($0)" }

        // Orders to cancel during the run, placed now, one process after another.
        var oldOrders: [(orderId: String, lines: [String: Int])] = []
        for (index, server) in servers.enumerated() {
            for n in 0..<Self.oldOrdersPerProcess {
                let cart = "old-\(index)-\(n)"
                let lines = [Self.hotSKUs[n % 3]: 1 + n % 2, Self.hotSKUs[(n + 1) % 3]: 1]
                for (sku, quantity) in lines.sorted(by: { $0.key < $1.key }) {
                    server.sendLine(rpc("add", "cart.add", ["cartId": cart, "sku": sku, "quantity": quantity]))
                    XCTAssertNotNil(server.readReplies(1)["add"]?.result)
                }
                server.sendLine(rpc("place", "orders.place", ["cartId": cart, "idempotencyKey": cart]))
                let order = try XCTUnwrap(server.readReplies(1)["place"]?.result)
                oldOrders.append((try XCTUnwrap(order["orderId"] as? String), lines))
            }
        }
        // Carts for the orders placed during the run: more than the stock left, so some run out.
        for (index, server) in servers.enumerated() {
            for n in 0..<Self.newOrdersPerProcess {
                let cart = "new-\(index)-\(n)"
                for (line, sku) in [Self.hotSKUs[(n + 2) % 3], Self.hotSKUs[n % 3]].enumerated() {
                    server.sendLine(rpc("add", "cart.add", ["cartId": cart, "sku": sku, "quantity": 1 + (n + line) % 3]))
                    XCTAssertNotNil(server.readReplies(1)["add"]?.result)
                }
            }
        }

        // All at once: each process gets its new orders, the cancels of half the old orders (every
        // old order is cancelled by two processes) and its adjusts (some would go below zero),
        // shuffled, in one write.
        var random = SeededRandom(seed: 32)
        for (index, server) in servers.enumerated() {
            var lines: [String] = []
            for n in 0..<Self.newOrdersPerProcess {
                lines.append(rpc("new-\(index)-\(n)", "orders.place",
                                 ["cartId": "new-\(index)-\(n)", "idempotencyKey": "new-\(index)-\(n)", "_meta": ["actor": actor[index]]]))
            }
            for (n, old) in oldOrders.enumerated() where n % 2 == index % 2 {
                lines.append(rpc("cancel-\(n)", "orders.cancel", ["orderId": old.orderId, "_meta": ["actor": actor[index]]]))
            }
            for n in 0..<Self.adjustsPerProcess {
                lines.append(rpc("adjust-\(index)-\(n)", "admin.stock.adjust",
                                 ["sku": Self.hotSKUs[(index + n) % 3], "delta": Self.adjustDelta(process: index, n), "reason": "correction",
                                  "_meta": ["actor": actor[index]]]))
            }
            lines.shuffle(using: &random)
            server.send(lines.map { $0 + "\n" }.joined())
        }
        var placed: [String: (process: Int, lines: [[String: Any]])] = [:]
        var cancelledBy: [String: [[String: Any]]] = [:]
        var adjusted: [(sku: String, delta: Int, actor: String)] = []
        let callsPerProcess = Self.newOrdersPerProcess + oldOrders.count / 2 + Self.adjustsPerProcess
        for (index, server) in servers.enumerated() {
            let replies = server.readReplies(callsPerProcess, timeout: 120)
            XCTAssertEqual(replies.count, callsPerProcess, "every call answered")
            for (id, reply) in replies {
                if id.hasPrefix("new-") {
                    if let order = reply.result {
                        placed[try XCTUnwrap(order["orderId"] as? String)] = (index, try XCTUnwrap(order["lines"] as? [[String: Any]]))
                    } else {
                        XCTAssertEqual(reply.errorCode, 1002, "an order fails only OutOfStock: \(reply)")
                    }
                } else if id.hasPrefix("adjust-") {
                    let n = try XCTUnwrap(Int(id.split(separator: "-").last ?? ""))
                    if reply.result != nil {
                        adjusted.append((Self.hotSKUs[(index + n) % 3], Self.adjustDelta(process: index, n), actor[index]))
                    } else {
                        XCTAssertEqual(reply.errorCode, 1011, "an adjust fails only StockOutOfRange: \(reply)")
                    }
                } else {
                    let order = try XCTUnwrap(reply.result, "\(reply)")
                    XCTAssertEqual(order["status"] as? String, "cancelled")
                    cancelledBy[try XCTUnwrap(order["orderId"] as? String), default: []].append(order)
                }
            }
        }
        XCTAssertGreaterThan(placed.count, 0)
        XCTAssertEqual(Set(cancelledBy.keys), Set(oldOrders.map(\.orderId)))
        for (orderId, answers) in cancelledBy {
            XCTAssertEqual(answers.count, 2)
            XCTAssertEqual(Set(answers.map { $0["cancelledAt"] as? String ?? "-" }).count, 1, "\(orderId): both cancels answer the one cancel")
        }

        // The ledger, as `shop-rpc export ledger` writes it (NDJSON), in ledger order.
        let export = try runCommand(["export", "ledger"] + Array(store.prefix(2)) + ["--format", "ndjson"], timeout: 60)
        XCTAssertEqual(export.status, 0, export.stderr)
        struct Row { let sku: String, delta: Int, after: Int, reason: String, orderId: String, actor: String }
        let ledger = try export.stdout.split(separator: "\n").map { line -> Row in
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], String(line))
            return Row(sku: try XCTUnwrap(object["sku"] as? String), delta: try XCTUnwrap(object["delta"] as? Int),
                       after: try XCTUnwrap(object["availableAfter"] as? Int), reason: try XCTUnwrap(object["reason"] as? String),
                       orderId: object["orderId"] as? String ?? "", actor: object["actor"] as? String ?? "")
        }
        servers[0].sendLine(rpc("levels", "inventory.check", ["skus": Self.hotSKUs]))
        let levels = try XCTUnwrap(servers[0].readReplies(1)["levels"]?.result?["levels"] as? [[String: Any]])
        for level in levels {
            let sku = try XCTUnwrap(level["sku"] as? String)
            let available = try XCTUnwrap(level["available"] as? Int)
            XCTAssertGreaterThanOrEqual(available, 0, sku)
            let chain = ledger.filter { $0.sku == sku }
            var expected = Self.initialStock
            for row in chain {
                expected += row.delta
                XCTAssertEqual(row.after, expected, "\(sku): a row that does not follow the one before it")
                XCTAssertGreaterThanOrEqual(row.after, 0)
            }
            XCTAssertEqual(available, expected, "\(sku): the deltas add up to the level")
        }

        // Every order's stock was taken once and every cancelled order's given back once, each
        // row recording the actor of the call that made it.
        for old in oldOrders {
            let restocks = ledger.filter { $0.reason == "cancellation" && $0.orderId == old.orderId }
            XCTAssertEqual(Dictionary(uniqueKeysWithValues: restocks.map { ($0.sku, $0.delta) }), old.lines, "\(old.orderId) restocked exactly once")
            let cancelActors = Set(restocks.map(\.actor))
            XCTAssertEqual(cancelActors.count, 1)
            XCTAssertTrue(cancelActors.isSubset(of: Set(actor)), "\(cancelActors)")
        }
        for (orderId, order) in placed {
            let sales = ledger.filter { $0.reason == "sale" && $0.orderId == orderId }
            XCTAssertEqual(Dictionary(uniqueKeysWithValues: sales.map { ($0.sku, -$0.delta) }),
                           Dictionary(uniqueKeysWithValues: order.lines.map { ($0["sku"] as! String, $0["quantity"] as! Int) }))
            XCTAssertEqual(Set(sales.map(\.actor)), [actor[order.process]], "\(orderId): the placing process's actor")
        }
        let oldSales = ledger.filter { $0.reason == "sale" && !placed.keys.contains($0.orderId) }
        XCTAssertEqual(Set(oldSales.map(\.actor)), [""], "orders placed without _meta.actor record none")
        let corrections = ledger.filter { $0.reason == "correction" }
        XCTAssertEqual(corrections.map { "\($0.sku) \($0.delta) \($0.actor)" }.sorted(),
                       adjusted.map { "\($0.sku) \($0.delta) \($0.actor)" }.sorted(), "one row per adjust that succeeded, none for a refused one")
        XCTAssertEqual(ledger.count, ledger.filter { ["sale", "cancellation", "correction"].contains($0.reason) }.count)

        for server in servers {
            server.closeInput()
            XCTAssertEqual(server.waitForExit(timeout: 60), 0)
        }
    }

    /// The delta of process `process`'s `n`-th adjust: takes more than is ever in stock now and
    /// then, so some are refused.
    private static func adjustDelta(process: Int, _ n: Int) -> Int {
        [5, -3, 12, -60, 2, -7, 1, -45][(process + n) % 8]
    }
}
