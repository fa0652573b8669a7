import Foundation
import XCTest

/// Several real `shop-rpc` processes placing many multi-line orders at once on one PostgreSQL
/// database (and on one SQLite file), over a few hot SKUs that the carts hold in shuffled orders (the peak-load pattern of
/// issue #24): every order is answered, stock is exact, and no transaction is ever retried after
/// a deadlock, because every order locks its stock rows in one order. Needs the cluster of
/// `scripts/with-postgres` (skipped otherwise).
final class PostgreSQLContentionTests: XCTestCase {
    private var database: PostgreSQLScratchDatabase!

    override func tearDown() {
        database?.drop()
        super.tearDown()
    }

    static let hotSKUs = ["SKU-0011", "SKU-0012", "SKU-0013", "SKU-0014"]
    static let initialStock = 60
    static let processes = 4
    static let ordersPerProcess = 16

    func test_hotSKUsInShuffledOrders_acrossProcesses_noDeadlockRetry_exactStock_everyOrderAnswered() throws {
        database = try PostgreSQLScratchDatabase()
        try placeContendedOrders(store: ["--db", database.uri, "--db-pool", "8"], postgres: true) { sql in
            try PostgreSQLTestSession(uri: self.database.uri).query(sql)
        }
    }

    /// `cart.add` reads the line's quantity and writes the sum: pipelined adds of the same SKU to
    /// one cart, from two processes, each add exactly once (none overwrites another's).
    func test_concurrentAddsToOneCartLine_acrossProcesses_addUp() throws {
        database = try PostgreSQLScratchDatabase()
        let servers = try (0..<2).map { _ in try ServerProcess(["--db", database.uri, "--db-pool", "8"]) }
        defer { servers.forEach { $0.closeInput() } }
        let adds = 40
        for (index, server) in servers.enumerated() {
            server.send((0..<adds).map { rpc("add-\(index)-\($0)", "cart.add", ["cartId": "shared", "sku": "SKU-0021", "quantity": 1]) + "\n" }.joined())
        }
        for server in servers {
            XCTAssertEqual(server.readReplies(adds).values.filter { $0["result"] != nil }.count, adds)
        }
        servers[0].sendLine(rpc("cart", "cart.get", ["cartId": "shared"]))
        let cart = try XCTUnwrap(servers[0].readReplies(1)["cart"]?["result"] as? [String: Any])
        let lines = try XCTUnwrap(cart["lines"] as? [[String: Any]])
        XCTAssertEqual(lines.first?["quantity"] as? Int, 2 * adds, "\(cart)")
    }

    /// The same orders on one SQLite file shared by the processes: SQLite has one writer at a time
    /// (each process's group writer takes the file's write lock with BEGIN IMMEDIATE), so there is
    /// no lock order to get wrong, but the stock must be exact all the same.
    func test_sameOrdersOnOneSQLiteFile_acrossProcesses_exactStock_everyOrderAnswered() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("contention-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("shop.sqlite").path
        try placeContendedOrders(store: ["--db", file], postgres: false) { sql in try sqliteShell(file, sql) }
    }

    /// Sets the hot SKUs' stock through `sql` (a query runner on the store's database), places
    /// every process's orders at once, and checks the replies, the stock and (on PostgreSQL) that
    /// no transaction was retried after a deadlock.
    private func placeContendedOrders(store: [String], postgres: Bool, sql: (String) throws -> String?) throws {
        var random = SeededRandom(seed: 24)
        let servers = try (0..<Self.processes).map { _ in
            try ServerProcess(store + ["--log-level", "debug"])
        }
        defer { servers.forEach { $0.closeInput() } }
        // Every process has migrated and seeded (one of them did) before the stock is set.
        for server in servers {
            server.sendLine(rpc("ready", "ping"))
            XCTAssertNotNil(server.readReplies(1)["ready"])
        }
        let skuList = Self.hotSKUs.map { "'\($0)'" }.joined(separator: ",")
        XCTAssertNotNil(try sql("UPDATE stock SET available = \(Self.initialStock) WHERE sku IN (\(skuList))"))

        // Carts of 2-3 hot SKUs in a shuffled order, 1-3 of each: demand beyond the stock, so some
        // orders run out while others contend for the same rows.
        var carts: [(server: Int, cartId: String, lines: [(sku: String, quantity: Int)])] = []
        for (index, server) in servers.enumerated() {
            for n in 0..<Self.ordersPerProcess {
                var skus = Self.hotSKUs
                skus.shuffle(using: &random)
                let lines = skus.prefix(2 + random.next(below: 2)).map { ($0, 1 + random.next(below: 3)) }
                let cartId = "p\(index)-c\(n)"
                for (line, item) in lines.enumerated() {  // one at a time: the cart keeps this order
                    server.sendLine(rpc("\(cartId)-\(line)", "cart.add", ["cartId": cartId, "sku": item.0, "quantity": item.1]))
                    XCTAssertNotNil(server.readReplies(1)["\(cartId)-\(line)"]?["result"])
                }
                carts.append((index, cartId, lines))
            }
        }

        // Every order of every process at once: each process gets all of its orders in one write.
        for (index, server) in servers.enumerated() {
            server.send(carts.filter { $0.server == index }.map {
                rpc($0.cartId, "orders.place", ["cartId": $0.cartId, "idempotencyKey": "key-\($0.cartId)"]) + "\n"
            }.joined())
        }
        var replies: [String: [String: Any]] = [:]
        for server in servers {
            replies.merge(server.readReplies(Self.ordersPerProcess, timeout: 60)) { first, _ in first }
        }
        XCTAssertEqual(replies.count, carts.count, "every order answered")

        var ordered = Dictionary(uniqueKeysWithValues: Self.hotSKUs.map { ($0, 0) })
        var placed = 0
        for cart in carts {
            guard let reply = replies[cart.cartId] else { continue }
            if let order = reply["result"] as? [String: Any] {
                placed += 1
                let lines = try XCTUnwrap(order["lines"] as? [[String: Any]])
                XCTAssertEqual(lines.compactMap { $0["sku"] as? String }, cart.lines.map(\.sku), "the order keeps the cart's line order")
                for line in lines { ordered[line["sku"] as! String, default: 0] += line["quantity"] as! Int }
            } else {
                let error = try XCTUnwrap(reply["error"] as? [String: Any], "\(reply)")
                XCTAssertEqual(error["code"] as? Int, 1002, "the only failure is OutOfStock: \(reply)")
            }
        }
        XCTAssertGreaterThan(placed, 0)
        for sku in Self.hotSKUs {
            let left = try XCTUnwrap(Int(try sql("SELECT available FROM stock WHERE sku = '\(sku)'") ?? ""))
            XCTAssertGreaterThanOrEqual(left, 0, sku)
            XCTAssertEqual(left + ordered[sku]!, Self.initialStock, "\(sku): never oversold, never undersold")
        }

        // No order waited for PostgreSQL's deadlock detector: no retry after SQLSTATE 40P01 (the
        // store logs each retry at debug level with its SQLSTATE).
        for server in servers {
            server.closeInput()
            XCTAssertEqual(server.waitForExit(timeout: 60), 0)
        }
        if postgres {
            let retriedAfterDeadlock = servers.map { $0.stderrOutput.components(separatedBy: "retried after SQLSTATE 40P01").count - 1 }
            XCTAssertEqual(retriedAfterDeadlock, Array(repeating: 0, count: Self.processes), "deadlock retries per process")
        }
    }
}
