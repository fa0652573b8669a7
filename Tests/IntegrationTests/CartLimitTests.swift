import Foundation
import XCTest

/// A cart's line limit and its totals at the ends of the price range, through the real binary:
/// a cart.add past the limit is `CartFull`, and a cart whose total no Int64 holds (one written
/// before the limit existed) is `CartFull` too, never a trap (issue #40, protocol.md section 7).
final class CartLimitTests: XCTestCase {
    private static let maxPrice = 1_000_000_000_000
    private static let maxLines = 100

    /// `count` products `BIG-00000`… at the highest price, `stock` units each, upserted in calls
    /// of at most 1 000; reads every reply.
    private func upsertExpensiveProducts(_ server: ServerProcess, count: Int, stock: Int) throws {
        var first = 0
        while first < count {
            let last = min(first + 1000, count)
            let products = (first..<last).map { ["sku": String(format: "BIG-%05d", $0), "name": "Big \($0)", "category": "big", "priceCents": Self.maxPrice, "stock": stock] as [String: Any] }
            server.sendLine(rpc("upsert-\(first)", "admin.products.upsert", ["products": products]))
            let reply = try XCTUnwrap(server.readJSON(timeout: 60) as? [String: Any])
            XCTAssertNotNil(reply.result, String(String(describing: reply).prefix(600)))
            first = last
        }
    }

    func test_cartAdd_aNewLinePastOneHundred_isCartFull_overRealPipes() throws {
        let server = try ServerProcess(["--db", ":memory:", "--allow", "read,write,admin"])
        try upsertExpensiveProducts(server, count: Self.maxLines + 1, stock: 1000)
        for index in 0..<Self.maxLines {
            server.sendLine(rpc(index, "cart.add", ["cartId": "big", "sku": String(format: "BIG-%05d", index), "quantity": 999]))
        }
        let replies = server.readReplies(Self.maxLines)
        XCTAssertEqual(replies.values.filter { $0.result != nil }.count, Self.maxLines, String(describing: replies.values.first { $0.result == nil }))
        // The largest total a cart can have now: 100 × 999 × 10^12, well inside an Int64. (The
        // replies of pipelined adds may come in any order, so the full cart is the one read after.)
        server.sendLine(rpc("total", "cart.get", ["cartId": "big"]))
        XCTAssertEqual((server.readJSON() as? [String: Any])?.result?["totalCents"] as? Int, Self.maxLines * 999 * Self.maxPrice)

        server.sendLine(rpc("full", "cart.add", ["cartId": "big", "sku": String(format: "BIG-%05d", Self.maxLines), "quantity": 1]))
        let full = try XCTUnwrap(server.readJSON() as? [String: Any])
        XCTAssertEqual(full.errorCode, 1013, "\(full)")
        XCTAssertEqual(full.errorData?["type"] as? String, "CartFull")
        XCTAssertEqual(full.errorData?["lines"] as? Int, Self.maxLines)
        XCTAssertEqual(full.errorData?["max"] as? Int, Self.maxLines)
        XCTAssertEqual(full.errorData?["cartId"] as? String, "big")

        // Nothing changed, and removing a line makes room again.
        server.sendLine(rpc("get", "cart.get", ["cartId": "big"]))
        XCTAssertEqual(((server.readJSON() as? [String: Any])?.result?["lines"] as? [Any])?.count, Self.maxLines)
        server.sendLine(rpc("remove", "cart.remove", ["cartId": "big", "sku": "BIG-00000"]))
        XCTAssertNotNil((server.readJSON() as? [String: Any])?.result)
        server.sendLine(rpc("again", "cart.add", ["cartId": "big", "sku": String(format: "BIG-%05d", Self.maxLines), "quantity": 1]))
        XCTAssertNotNil((server.readJSON() as? [String: Any])?.result)
        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0, server.stderrOutput)
    }

    /// The reproduction of issue #40: 9 233 lines of 999 units at 10^12 cents sum past 2^63. The
    /// limit stops a client from building that cart now, but a store may hold one written before:
    /// reading it, adding to it and ordering it answer `CartFull` (with `totalOutOfRange`), take
    /// no stock, and the server keeps serving. On SQLite, and on PostgreSQL when configured (its
    /// order function's BIGINT overflow is the same error).
    func test_oldCartWhoseTotalOverflows_isCartFull_andTheServerKeepsServing_overRealPipes() throws {
        try CommandStore.forEach { store in
            let lineCount = 9233
            let server = try ServerProcess(["--db", store.location, "--allow", "read,write,admin"])
            try upsertExpensiveProducts(server, count: lineCount + 1, stock: 5)
            let insert = "INSERT INTO cart_lines (cart_id, sku, quantity, unit_price_cents) SELECT 'old', sku, 999, \(Self.maxPrice) "
                + "FROM products WHERE sku LIKE 'BIG-%' AND sku <> 'BIG-\(String(format: "%05d", lineCount))' ORDER BY sku;"
            switch store.kind {
            case .sqlite: _ = try sqliteShell(store.location, insert)
            case .postgres: XCTAssertNotNil(try PostgreSQLTestSession(uri: store.location).query(insert))
            }

            server.sendLine(rpc("get", "cart.get", ["cartId": "old"]))
            server.sendLine(rpc("add", "cart.add", ["cartId": "old", "sku": String(format: "BIG-%05d", lineCount), "quantity": 1]))
            server.sendLine(rpc("place", "orders.place", ["cartId": "old", "idempotencyKey": "k-old"]))
            server.sendLine(rpc("stock", "inventory.check", ["skus": ["BIG-00000"]]))
            let replies = server.readReplies(4)
            for id in ["get", "place"] {
                XCTAssertEqual(replies[id]?.errorCode, 1013, "\(id): \(String(describing: replies[id]))")
                XCTAssertEqual(replies[id]?.errorData?["type"] as? String, "CartFull")
                XCTAssertEqual(replies[id]?.errorData?["totalOutOfRange"] as? Bool, true, "\(id)")
            }
            // A new line in a cart already past the limit is refused for the limit itself.
            XCTAssertEqual(replies["add"]?.errorCode, 1013, "\(String(describing: replies["add"]))")
            XCTAssertEqual(replies["add"]?.errorData?["lines"] as? Int, lineCount)
            XCTAssertTrue(jsonText(replies["stock"]?.result ?? [:]).contains(#""available":5"#), "no stock taken: \(String(describing: replies["stock"]))")

            server.sendLine(rpc("clear", "cart.clear", ["cartId": "old"]))
            server.sendLine(rpc("last", "ping"))
            let after = server.readReplies(2)
            XCTAssertEqual(after["clear"]?.result?["totalCents"] as? Int, 0, "\(after)")
            XCTAssertNotNil(after["last"]?.result)
            server.closeInput()
            XCTAssertEqual(server.waitForExit(timeout: 60), 0, server.stderrOutput)
            XCTAssertFalse(server.stderrOutput.contains("Fatal error"), server.stderrOutput)
        }
    }
}
