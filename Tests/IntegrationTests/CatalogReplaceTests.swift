import Foundation
import XCTest

/// `shop-rpc import --replace` beside a running server, over real pipes, on both stores: what
/// the file does not list is archived (gone from listings, search, catalog.get and cart.add; a
/// cart holding it cannot be ordered; stored orders keep their lines), and comes back when a
/// later file lists it.
final class CatalogReplaceTests: XCTestCase {
    func test_replace_archivesWhatTheFileDoesNotList_andALaterImportBringsItBack() throws {
        try CommandStore.forEach { store in
            // A store the server creates holds the demo catalog; an order and a cart refer to SKU-0001.
            let server = try ServerProcess(["--db", store.location])
            defer { server.closeInput() }
            var id = 0
            func call(_ method: String, _ params: [String: Any]) -> [String: Any] {
                id += 1
                server.sendLine(rpc(id, method, params))
                return server.readJSON(timeout: 30) as? [String: Any] ?? [:]
            }
            XCTAssertNotNil(call("cart.add", ["cartId": "old", "sku": "SKU-0001", "quantity": 2]).result)
            let placed = call("orders.place", ["cartId": "old", "idempotencyKey": "k-old"]).result ?? [:]
            XCTAssertNotNil(placed["orderId"])
            XCTAssertNotNil(call("cart.add", ["cartId": "c", "sku": "SKU-0002", "quantity": 1]).result)
            XCTAssertNotNil(call("cart.add", ["cartId": "c", "sku": "SKU-0001", "quantity": 1]).result)

            // The new catalog: two demo products kept, one new.
            let file = try temporaryFile("catalog.csv", """
                sku,name,category,priceCents
                SKU-0002,Classic Espresso Roast,coffee,16749
                SKU-0008,Deluxe Pour-Over Kettle,coffee,12695
                NEW-1,Travel Grinder,coffee,3900
                """)
            let result = try runCommand(["import", "--replace", "--db", store.location, file])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.summary, ["rows": 3, "created": 1, "updated": 0, "unchanged": 2, "archived": 238, "stockSet": 0])

            let listed = (call("catalog.list", ["limit": 200]).result?["items"] as? [[String: Any]])?.compactMap { $0["sku"] as? String }
            XCTAssertEqual(listed, ["SKU-0002", "SKU-0008", "NEW-1"], "in catalog order: the demo's, then the new one")
            XCTAssertEqual((call("catalog.list", ["category": "books"]).result?["items"] as? [Any])?.count, 0)
            let found = (call("catalog.search", ["query": "classic"]).result?["items"] as? [[String: Any]])?.compactMap { $0["sku"] as? String }
            XCTAssertEqual(found, ["SKU-0002"])
            let get = call("catalog.get", ["sku": "SKU-0001"])
            XCTAssertEqual(get.errorCode, 1001)
            XCTAssertEqual(get.errorType, "NotFound")
            XCTAssertEqual(call("cart.add", ["cartId": "d", "sku": "SKU-0001", "quantity": 1]).errorCode, 1001)
            let order = call("orders.place", ["cartId": "c", "idempotencyKey": "k"])
            XCTAssertEqual(order.errorCode, 1001, "\(order)")
            XCTAssertEqual(order.errorData?["id"] as? String, "SKU-0001", "the error names the archived SKU")
            XCTAssertEqual(order.errorData?["entity"] as? String, "product")
            let stored = call("orders.get", ["orderId": placed["orderId"] as? String ?? ""]).result
            XCTAssertEqual((stored?["lines"] as? [[String: Any]])?.first?["sku"] as? String, "SKU-0001", "a stored order keeps its lines")
            XCTAssertEqual(call("cart.remove", ["cartId": "c", "sku": "SKU-0001"]).result?["totalCents"] as? Int, 16749)
            XCTAssertNotNil(call("orders.place", ["cartId": "c", "idempotencyKey": "k"]).result, "the rest of the cart can be ordered")

            // A later import that lists SKU-0001 brings it back, with its fields and stock.
            let back = try runCommand(["import", "--db", store.location, "--format", "ndjson", "-"], input: #"{"sku":"SKU-0001"}"# + "\n")
            XCTAssertEqual(back.summary, ["rows": 1, "created": 0, "updated": 1, "unchanged": 0, "archived": 0, "stockSet": 0])
            XCTAssertEqual(call("catalog.get", ["sku": "SKU-0001"]).result?["name"] as? String, "Classic Field Guide")
            XCTAssertEqual(((call("catalog.search", ["query": "field guide"]).result?["items"] as? [[String: Any]])?.first)?["sku"] as? String, "SKU-0001")
            XCTAssertNotNil(call("cart.add", ["cartId": "e", "sku": "SKU-0001", "quantity": 1]).result)
        }
    }
}
