import XCTest
@testable import ShopAPI

/// Medusa's product import template (Tests/Fixtures/Platforms/medusa-import-template.csv, from
/// the admin dashboard's "download template"; source in the README there) through the preset.
final class MedusaPresetTests: XCTestCase {
    private let fixture = "medusa-import-template.csv"

    func test_template_givesTwoProducts_fiveVariants_inTheFirstPriceColumnsCurrency() throws {
        let result = try PlatformFixtures.translate(.medusa, fixture: fixture)
        XCTAssertTrue(result.errors.isEmpty, "\(result.errors.report(file: fixture))")
        XCTAssertEqual(result.records.count, 5)
        XCTAssertEqual(result.records.first?.fields, [
            "handle": "coffee-mug-v3", "sku": "coffee-mug-v3-one-size", "name": "Medusa Coffee Mug",
            "description": "Every programmer's best friend.", "category": "Uncategorized", "status": "active",
            "option1Name": "Size", "option1Value": "One Size", "price": "10", "currency": "EUR",
        ])
        let sweatpants = result.variants(of: "sweatpants-v2")
        XCTAssertEqual(sweatpants.map { $0[.sku] }, ["sweatpants-v2-s", "sweatpants-v2-m", "sweatpants-v2-l", "sweatpants-v2-xl"])
        XCTAssertEqual(sweatpants.map { $0[.option1Value] }, ["S", "M", "L", "XL"])
        XCTAssertEqual(Set(sweatpants.map { $0[.price] }), ["29.5"])
        XCTAssertEqual(Set(sweatpants.map { $0[.name] }), ["Medusa Sweatpants"])
        XCTAssertTrue(result.report.ignoredColumns.contains("Variant Price USD"))
        XCTAssertFalse(result.report.ignoredColumns.contains("Variant Price EUR"))
    }

    func test_template_currencyOption_choosesThatPriceColumn() throws {
        let result = try PlatformFixtures.translate(.medusa, fixture: fixture, options: PlatformImportOptions(currency: "USD"))
        XCTAssertEqual(result.records.map { $0[.price] }, ["12", "33.5", "33.5", "33.5", "33.5"])
        XCTAssertEqual(Set(result.records.map { $0[.currency] }), ["USD"])
        XCTAssertTrue(result.report.ignoredColumns.contains("Variant Price EUR"))
    }

    func test_template_aCurrencyTheFileHasNoPricesIn_isAHeaderErrorNamingTheOnesItHas() throws {
        let result = try PlatformFixtures.translate(.medusa, fixture: fixture, options: PlatformImportOptions(currency: "JPY"))
        XCTAssertEqual(result.records, [])
        XCTAssertEqual(result.errors.report(file: "m.csv"),
                       ["m.csv:1: header: no price in JPY: the file has prices in EUR, USD; choose one with --currency"])
    }

    func test_template_columnsKeptNowhere_areListedOnce() throws {
        let result = try PlatformFixtures.translate(.medusa, fixture: fixture)
        XCTAssertEqual(result.report.ignoredColumns, [
            "Product Id", "Product Subtitle", "Product Thumbnail", "Product Weight", "Product Length", "Product Width",
            "Product Height", "Product HS Code", "Product Origin Country", "Product MID Code", "Product Material",
            "Shipping Profile Id", "Product Sales Channel 1", "Product Collection Id", "Product Type Id", "Product Tag 1",
            "Product Discountable", "Product External Id", "Variant Id", "Variant Title", "Variant Barcode",
            "Variant Allow Backorder", "Variant Manage Inventory", "Variant Weight", "Variant Length", "Variant Width",
            "Variant Height", "Variant HS Code", "Variant Origin Country", "Variant MID Code", "Variant Material",
            "Variant Price USD", "Product Image 1 Url", "Product Image 2 Url",
        ])
    }

    func test_statuses_mapToShopRPCs_and2024sSpelling_isReadWithPricesInMinorUnits() {
        let result = PlatformFixtures.translate(.medusa, text: """
            Product Handle,Product Title,Product Status,Variant SKU,Price EUR,Variant Inventory Quantity,Product Type
            a,A,published,A1,1000,4,Mugs
            b,B,draft,B1,2950,4,
            c,C,proposed,C1,1,4,
            d,D,rejected,D1,1,4,
            e,E,published,E1,29.5,4,
            """)
        XCTAssertEqual(result.errors.report(file: "m.csv"),
                       ["m.csv:6: Price EUR: \"29.5\" is not a whole number of the currency's minor units (such as 1999)"])
        XCTAssertEqual(result.records.map { $0[.status] }, ["active", "draft", "draft", "archived"])
        XCTAssertEqual(result.records.map { $0[.priceCents] }, ["1000", "2950", "1", "1"])
        XCTAssertEqual(result.records.map { $0[.price] }, [nil, nil, nil, nil])
        XCTAssertEqual(result.records.map { $0[.stock] }, ["4", "4", "4", "4"])
        XCTAssertEqual(result.records.map { $0[.category] }, ["Mugs", "Uncategorized", "Uncategorized", "Uncategorized"])
    }

    func test_template2024_semicolonSeparated_givesTheSameProductsWithStockAndPricesInMinorUnits() throws {
        let result = try PlatformFixtures.translate(.medusa, fixture: "medusa-import-template-2024-semicolon.csv")
        XCTAssertTrue(result.errors.isEmpty, "\(result.errors.report(file: "2024"))")
        XCTAssertEqual(result.records.map { $0[.sku] },
                       ["coffee-mug-v2-one-size", "sweatpants-v2-s", "sweatpants-v2-m", "sweatpants-v2-l", "sweatpants-v2-xl"])
        XCTAssertEqual(result.records.map { $0[.priceCents] }, ["1000", "2950", "2950", "2950", "2950"])
        XCTAssertEqual(result.records.map { $0[.stock] }, ["100", "100", "100", "100", "100"])
        XCTAssertEqual(Set(result.records.map { $0[.currency] }), ["EUR"])
    }
}
