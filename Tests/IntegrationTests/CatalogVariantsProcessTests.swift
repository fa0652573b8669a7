import Foundation
import XCTest

/// Products with variants and a draft, end to end over real pipes on both stores: `shop-rpc
/// import` of a file with a hoodie in two sizes and a draft, then a server answers `catalog.list`
/// with the hoodie once (two variants) and without the draft, `catalog.product` with both
/// variants, and `cart.add` of the draft's SKU as of an unknown one.
final class CatalogVariantsProcessTests: XCTestCase {
    func test_importHoodieInTwoSizesAndADraft_listShowsTheHoodieOnce_productBothVariants_draftIsNotFound() throws {
        try CommandStore.forEach { store in
            let file = try temporaryFile("variants.csv", """
                sku,name,description,category,priceCents,currency,stock,handle,brand,status,option1Name,option1Value
                HOOD-S,Hoodie,Warm and soft,apparel,4500,USD,3,hoodie,Acme,,Size,S
                HOOD-M,,,,4700,,0,hoodie,,,,M
                MUG-1,Mug,,kitchen,900,USD,5,,,draft,,
                """)
            let result = try runCommand(["import", "--db", store.location, file])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.summary, ["rows": 3, "created": 3, "updated": 0, "unchanged": 0, "archived": 0, "stockSet": 3])

            let server = try ServerProcess(["--db", store.location])
            server.sendLine(rpc(1, "catalog.list", [:]))
            let list = (server.readJSON() as? [String: Any])?.result
            let items = list?["items"] as? [[String: Any]] ?? []
            XCTAssertEqual(items.map { $0["handle"] as? String }, ["hoodie"], "the hoodie once, the draft not at all")
            XCTAssertEqual(items.first?["sku"] as? String, "HOOD-S")
            XCTAssertEqual(items.first?["priceMinCents"] as? Int, 4500)
            XCTAssertEqual(items.first?["priceMaxCents"] as? Int, 4700)
            XCTAssertEqual(items.first?["inStock"] as? Bool, true)
            let variants = items.first?["variants"] as? [[String: Any]] ?? []
            XCTAssertEqual(variants.map { $0["sku"] as? String }, ["HOOD-S", "HOOD-M"])
            XCTAssertEqual(variants.map { ($0["options"] as? [[String: String]])?.first?["value"] }, ["S", "M"])
            XCTAssertEqual(variants.map { $0["inStock"] as? Bool }, [true, false])

            server.sendLine(rpc(2, "catalog.product", ["handle": "hoodie"]))
            let product = (server.readJSON() as? [String: Any])?.result
            XCTAssertEqual(product?["name"] as? String, "Hoodie")
            XCTAssertEqual(product?["brand"] as? String, "Acme")
            XCTAssertEqual(product?["optionNames"] as? [String], ["Size"])
            let productVariants = product?["variants"] as? [[String: Any]] ?? []
            XCTAssertEqual(productVariants.map { $0["sku"] as? String }, ["HOOD-S", "HOOD-M"])
            XCTAssertEqual(productVariants.map { $0["available"] as? Int }, [3, 0])

            server.sendLine(rpc(3, "catalog.get", ["sku": "HOOD-M"]))
            let variant = (server.readJSON() as? [String: Any])?.result
            XCTAssertEqual(variant?["name"] as? String, "Hoodie", "filled down from the handle's first row")
            XCTAssertEqual(variant?["handle"] as? String, "hoodie")
            XCTAssertEqual(variant?["priceCents"] as? Int, 4700)

            server.sendLine(rpc(4, "cart.add", ["cartId": "c", "sku": "MUG-1", "quantity": 1]))
            let refused = (server.readJSON() as? [String: Any])?["error"] as? [String: Any]
            XCTAssertEqual(refused?["code"] as? Int, 1001, "a draft's SKU is as unknown to shoppers")
            XCTAssertEqual((refused?["data"] as? [String: Any])?["type"] as? String, "NotFound")
            server.sendLine(rpc(5, "catalog.product", ["handle": "MUG-1"]))
            XCTAssertEqual(((server.readJSON() as? [String: Any])?["error"] as? [String: Any])?["code"] as? Int, 1001)
            server.closeInput()
            XCTAssertEqual(server.waitForExit(), 0)

            let exported = try runCommand(["export", "products", "--db", store.location])
            XCTAssertEqual(exported.status, 0, exported.stderr)
            XCTAssertEqual(exported.stdout.split(separator: "\n").map(String.init), [
                "sku,name,description,category,priceCents,currency,stock,handle,brand,status,option1Name,option1Value,option2Name,option2Value,option3Name,option3Value",
                "HOOD-S,Hoodie,Warm and soft,apparel,4500,USD,3,hoodie,Acme,active,Size,S,,,,",
                "HOOD-M,Hoodie,Warm and soft,apparel,4700,USD,0,hoodie,Acme,active,Size,M,,,,",
                "MUG-1,Mug,,kitchen,900,USD,5,MUG-1,,draft,,,,,,",
            ], "every variant, in catalog order; the draft with its status")
        }
    }
}
