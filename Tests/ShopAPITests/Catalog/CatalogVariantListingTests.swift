import XCTest
@testable import ShopAPI

/// How a listing or search page reads its products' variants, on both stores: a product of one
/// variant is answered from its first variant's row (its level, and that it has no other), the
/// others with every variant. What the shortcut must not get wrong is a product that gains a
/// variant, and (SQLite, whose `products_by_handle` leaves out a first variant named by its own
/// SKU, `SQLiteProductHandle`) a product whose handle is the SKU of one of its variants.
final class CatalogVariantListingTests: StoreContractTestCase {
    private static func size(_ value: String) -> ProductOption { ProductOption(name: "Size", value: value) }

    /// Every page's and search's entries of the catalog, and the product `handle` as
    /// `catalog.product` gives it.
    private func assertListedEverywhere(_ expected: CatalogItem, query: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let listed = try service.catalogPages(pageSize: 1).flatMap(\.items).filter { $0.handle == expected.handle }
        XCTAssertEqual(listed, [expected], "catalog.list", file: file, line: line)
        let byCategory = try service.catalogPages(pageSize: 2, category: expected.category).flatMap(\.items).filter { $0.handle == expected.handle }
        XCTAssertEqual(byCategory, [expected], "catalog.list by category", file: file, line: line)
        let found = try service.searchProducts(ProductSearchRequest(query: query, limit: 10), interruption: nil).items.filter { $0.handle == expected.handle }
        XCTAssertEqual(found, [expected], "catalog.search", file: file, line: line)
        let product = try service.catalogProduct(handle: expected.handle, interruption: nil)
        XCTAssertEqual(product.variants.map(\.sku), expected.variants.map(\.sku), "catalog.product", file: file, line: line)
    }

    func test_productOfOneVariant_namedByItsSKU_gainingASecondVariant_listsBoth_withItsLevel() throws {
        try forEachStore(creation: .empty) {
            let first = try service.importFile("sku,name,category,priceCents,currency,stock,option1Name,option1Value\nTEE,Tee,apparel,1500,USD,0,Size,M\n")
            XCTAssertEqual(first.errors, [])
            let tee = Product(sku: "TEE", name: "Tee", description: "", category: "apparel", priceCents: 1500, currency: "USD",
                              handle: "TEE", brand: "", options: [Self.size("M")])
            let alone = VariantChoice(sku: "TEE", options: [Self.size("M")], priceCents: 1500, inStock: false)
            try assertListedEverywhere(CatalogItem(first: tee, variants: [alone]), query: "tee")

            let second = try service.importFile("sku,priceCents,stock,handle,option1Value\nTEE-L,1700,4,TEE,L\n")
            XCTAssertEqual(second.errors, [])
            XCTAssertEqual(second.outcome.summary.created, 1)
            let both = [alone, VariantChoice(sku: "TEE-L", options: [Self.size("L")], priceCents: 1700, inStock: true)]
            try assertListedEverywhere(CatalogItem(first: tee, variants: both), query: "tee")
            let item = try service.listCatalog(cursor: nil, limit: 10, category: nil, interruption: nil).items.first
            XCTAssertEqual(item.map { [$0.priceMinCents, $0.priceMaxCents] }, [1500, 1700])
            XCTAssertEqual(item?.inStock, true, "in stock through its second variant")

            let restocked = try service.importFile("sku,stock\nTEE,2\nTEE-L,0\n")
            XCTAssertEqual(restocked.errors, [])
            try assertListedEverywhere(CatalogItem(first: tee, variants: [
                VariantChoice(sku: "TEE", options: [Self.size("M")], priceCents: 1500, inStock: true),
                VariantChoice(sku: "TEE-L", options: [Self.size("L")], priceCents: 1700, inStock: false),
            ]), query: "apparel")

            XCTAssertEqual(try service.archiveProductsAndWait(["TEE-L"]).get(), ProductsArchived(archived: 1))
            XCTAssertThrowsError(try service.product(sku: "TEE", interruption: nil), "archiving one variant archives the product")
            XCTAssertEqual(try service.listCatalog(cursor: nil, limit: 10, category: nil, interruption: nil).items, [])
        }
    }

    func test_laterVariant_whoseSKUIsTheHandle_isListedAndChangedWithItsProduct() throws {
        try forEachStore(creation: .empty) {
            let imported = try service.importFile("""
                sku,name,category,priceCents,currency,stock,handle,option1Name,option1Value
                CAP-RED,Cap,hats,900,USD,0,cap,Colour,Red
                cap,,,950,,1,cap,,Blue
                SOLO,Solo Cap,hats,800,USD,3,,,

                """)
            XCTAssertEqual(imported.errors, [])
            let colour = { (value: String) in ProductOption(name: "Colour", value: value) }
            let cap = Product(sku: "CAP-RED", name: "Cap", description: "", category: "hats", priceCents: 900, currency: "USD",
                              handle: "cap", brand: "", options: [colour("Red")])
            try assertListedEverywhere(CatalogItem(first: cap, variants: [
                VariantChoice(sku: "CAP-RED", options: [colour("Red")], priceCents: 900, inStock: false),
                VariantChoice(sku: "cap", options: [colour("Blue")], priceCents: 950, inStock: true),
            ]), query: "cap")
            let solo = Product(sku: "SOLO", name: "Solo Cap", description: "", category: "hats", priceCents: 800, currency: "USD",
                               handle: "SOLO", brand: "", options: [])
            try assertListedEverywhere(CatalogItem(first: solo, variants: [
                VariantChoice(sku: "SOLO", options: [], priceCents: 800, inStock: true),
            ]), query: "solo")

            let renamed = try service.importFile("sku,name\ncap,Beanie\n")
            XCTAssertEqual(renamed.errors, [])
            XCTAssertEqual(try service.product(sku: "CAP-RED", interruption: nil).name, "Beanie", "a product field set through the variant named as the handle")
            let taken = try service.importFile("sku,priceCents,handle,option1Value\nCAP-2,990,cap,Blue\n")
            XCTAssertEqual(taken.errors.count, 1, "the values of the variant named as the handle are taken: \(taken.errors)")

            var exported: [String] = []
            try service.exportProducts { product, _, _ in exported.append(product.sku) }
            XCTAssertEqual(exported, ["CAP-RED", "cap", "SOLO"])
        }
    }
}
