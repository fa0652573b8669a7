import XCTest
@testable import ShopAPI

/// `admin.products.upsert` (the catalog import's rules, from products given as NDJSON lines) and
/// `admin.products.archive` (as `import --replace` archives), on both stores.
final class AdminProductsTests: StoreContractTestCase {
    private func upsert(_ lines: [String], actor: String? = nil, interruption: (any ShopInterruption)? = nil) throws -> CatalogImportSummary {
        try service.upsertProducts(ndjson: Array(lines.map { $0 + "\n" }.joined().utf8), actor: actor, interruption: interruption)
    }

    private func archive(_ skus: [String]) -> Result<ProductsArchived, ShopError> {
        waitForResult { service.archiveProducts(skus: skus, interruption: nil, completion: $0) }
    }

    func test_upsert_createsAndChanges_withTheImportsRules_andAnswersItsSummary() throws {
        try forEachStore {
            let level = try service.available("SKU-0002")
            let summary = try upsert([
                #"{"sku": "NEW-1", "name": "Ceramic Pour-Over", "category": "coffee", "priceCents": 2450, "stock": 9}"#,
                #"{"sku": "SKU-0002", "priceCents": 15999, "stock": \#(level + 4)}"#,
                #"{"sku": "SKU-0003"}"#,
            ], actor: "ops:dana")
            XCTAssertEqual(summary, CatalogImportSummary(rows: 3, created: 1, updated: 1, unchanged: 1, archived: 0, stockSet: 2))
            XCTAssertEqual(try service.product(sku: "NEW-1", interruption: nil),
                           Product(sku: "NEW-1", name: "Ceramic Pour-Over", description: "", category: "coffee", priceCents: 2450, currency: "USD"))
            XCTAssertEqual(try service.product(sku: "SKU-0002", interruption: nil).priceCents, 15999)
            XCTAssertEqual(try service.product(sku: "SKU-0002", interruption: nil).name, "Classic Espresso Roast", "left out, kept")
            XCTAssertEqual(try service.available("SKU-0002"), level + 4)
            XCTAssertTrue(try service.searchItems("ceramic", limit: 5).contains { $0.sku == "NEW-1" })
            let rows = try service.ledger()
            XCTAssertEqual(rows.map { "\($0.sku) \($0.delta) \($0.reason.rawValue) \($0.source ?? "-") \($0.actor ?? "-")" }.sorted(), [
                "NEW-1 9 import admin.products.upsert ops:dana",
                "SKU-0002 4 import admin.products.upsert ops:dana",
            ])
            try assertLedgerInvariant(service, skus: ["SKU-0002", "NEW-1"])
        }
    }

    func test_upsert_anyBadProduct_writesNothing_andNamesEachError() throws {
        try forEachStore {
            let price = try service.product(sku: "SKU-0002", interruption: nil).priceCents
            XCTAssertThrowsError(try upsert([
                #"{"sku": "SKU-0002", "priceCents": 1}"#,
                #"{"sku": "NEW-2", "name": "No Category", "priceCents": 100}"#,
                #"{"sku": "NEW-3", "name": "X", "category": "c", "priceCents": -5}"#,
                #"{"sku": "SKU-0002", "stock": 1}"#,
                #"{"sku": "NEW-4", "colour": "red"}"#,
            ])) { error in
                guard case let .invalidProducts(errors, more)? = error as? ShopError else { return XCTFail("\(error)") }
                XCTAssertEqual(more, 0)
                XCTAssertEqual(errors.map(\.line), [2, 3, 4, 5], "every bad product, in order: \(errors)")
                XCTAssertEqual(errors.map(\.field), ["category", "priceCents", "sku", "line"])
            }
            XCTAssertEqual(try service.product(sku: "SKU-0002", interruption: nil).priceCents, price, "nothing was written")
            XCTAssertThrowsError(try service.product(sku: "NEW-2", interruption: nil))
            XCTAssertEqual(try service.ledger(), [])
        }
    }

    func test_archive_takesProductsOutOfTheCatalog_asReplaceDoes_andAnUpsertBringsThemBack() throws {
        try forEachStore {
            let level = try service.available("SKU-0005")
            let word = try XCTUnwrap(try service.product(sku: "SKU-0006", interruption: nil).name.split(separator: " ").last.map(String.init))
            XCTAssertTrue(try service.searchItems(word, limit: 200).contains { $0.sku == "SKU-0006" })
            _ = try service.addToCartAndWait("c", "SKU-0005", 1).get()
            XCTAssertEqual(try archive(["SKU-0005", "SKU-0006", "SKU-0005"]).get(), ProductsArchived(archived: 2))
            XCTAssertThrowsError(try service.product(sku: "SKU-0005", interruption: nil)) {
                XCTAssertEqual($0 as? ShopError, .notFound(entity: "product", id: "SKU-0005"))
            }
            XCTAssertFalse(try service.allProducts().contains { $0.sku == "SKU-0005" })
            XCTAssertFalse(try service.searchItems(word, limit: 200).contains { $0.sku == "SKU-0006" })
            XCTAssertEqual(service.placeOrderAndWait("c", key: "k").failure, .notFound(entity: "product", id: "SKU-0005"))
            XCTAssertEqual(service.adjustStockAndWait("SKU-0005", by: 1).failure, .notFound(entity: "product", id: "SKU-0005"))
            XCTAssertEqual(try archive(["SKU-0005"]).get(), ProductsArchived(archived: 0), "archived already")

            XCTAssertEqual(try upsert([#"{"sku": "SKU-0005"}"#]).updated, 1, "listed again: back in the catalog")
            XCTAssertEqual(try service.available("SKU-0005"), level, "its stock was kept")
            XCTAssertEqual(try service.placeOrderAndWait("c", key: "k").get().lines.map(\.sku), ["SKU-0005"])
            XCTAssertEqual(try service.ledger().map(\.reason), [.sale], "archiving changes no level")
        }
    }

    func test_archive_anUnknownSku_archivesNone() throws {
        try forEachStore {
            XCTAssertEqual(archive(["SKU-0007", "SKU-NOPE"]).failure, .notFound(entity: "product", id: "SKU-NOPE"))
            XCTAssertEqual(try service.product(sku: "SKU-0007", interruption: nil).sku, "SKU-0007", "still in the catalog")
        }
    }

    /// A cancelled order of a product archived since still gives its units back (its stock row
    /// is kept), so the level is right when the product is listed again.
    func test_cancel_ofAnArchivedProductsOrder_restocksIt() throws {
        try forEachStore {
            _ = try service.addToCartAndWait("c", "SKU-0008", 2).get()
            let order = try service.placeOrderAndWait("c", key: "k").get()
            let level = try XCTUnwrap(try service.ledger().last?.availableAfter)
            _ = try archive(["SKU-0008"]).get()
            XCTAssertEqual(try service.cancelOrderAndWait(order.orderId).get().status, "cancelled")
            _ = try upsert([#"{"sku": "SKU-0008"}"#])
            XCTAssertEqual(try service.available("SKU-0008"), level + 2)
            try assertLedgerInvariant(service, skus: ["SKU-0008"])
        }
    }
}
