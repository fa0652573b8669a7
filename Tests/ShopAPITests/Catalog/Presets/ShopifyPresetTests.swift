import XCTest
@testable import ShopAPI

/// Shopify's product CSV template (Tests/Fixtures/Platforms/shopify-product_template.csv, the
/// file Shopify's admin offers as "sample CSV"; source in the README there) through the preset.
final class ShopifyPresetTests: XCTestCase {
    private let fixture = "shopify-product_template.csv"

    func test_template_givesEveryVariantOfItsThreeProducts_andSkipsTheImageOnlyRow() throws {
        let result = try PlatformFixtures.translate(.shopify, fixture: fixture)
        XCTAssertTrue(result.errors.isEmpty, "\(result.errors.report(file: fixture))")
        XCTAssertEqual(result.rowsRead, 17)
        XCTAssertEqual(result.records.count, 16)
        XCTAssertEqual(result.variants(of: "example-shirt").count, 12)
        XCTAssertEqual(result.variants(of: "example-pants").count, 3)
        XCTAssertEqual(result.variants(of: "example-hat").count, 1)
        XCTAssertEqual(result.report.skippedRows, [.imageOnly: 1])
        XCTAssertEqual(result.records.map(\.line), Array(2...16) + [18])
    }

    func test_template_firstRow_carriesProductFieldsOptionsPriceAndStock() throws {
        let shirt = try XCTUnwrap(try PlatformFixtures.translate(.shopify, fixture: fixture).records.first)
        XCTAssertEqual(shirt.fields, [
            "handle": "example-shirt", "sku": "SRT_COT_111", "name": "Example T-Shirt",
            "description": "This t-shirt is as simple as it gets. Easy to wear and insanely comfortable. Plus, it's made right here in our store for that extra special touch. Order a custom design or keep it blank for a classic look you can print on.",
            "category": "Shirts", "brand": "Acme", "status": "active",
            "option1Name": "Color", "option1Value": "Green", "option2Name": "Size", "option2Value": "S",
            "price": "25", "stock": "0",
        ])
    }

    func test_template_variantRows_getTheProductFieldsFilledDown() throws {
        let result = try PlatformFixtures.translate(.shopify, fixture: fixture)
        let purpleLarge = try XCTUnwrap(result.records.first { $0[.sku] == "SRT_COT_433" })
        XCTAssertEqual(purpleLarge.line, 13)
        XCTAssertEqual(purpleLarge[.name], "Example T-Shirt")
        XCTAssertEqual(purpleLarge[.brand], "Acme")
        XCTAssertEqual(purpleLarge[.category], "Shirts")
        XCTAssertEqual(purpleLarge[.option1Name], "Color")
        XCTAssertEqual(purpleLarge[.option1Value], "Purple")
        XCTAssertEqual(purpleLarge[.option2Name], "Size")
        XCTAssertEqual(purpleLarge[.option2Value], "L")
    }

    func test_template_draftAndArchivedProducts_keepTheirStatus_pricesInUnits_stockPerVariant() throws {
        let result = try PlatformFixtures.translate(.shopify, fixture: fixture)
        let pants = result.variants(of: "example-pants")
        XCTAssertEqual(pants.map { $0[.status] }, ["draft", "draft", "draft"])
        XCTAssertEqual(pants.map { $0[.sku] }, ["PNT_DEN_285", "PNT_DEN_305", "PNT_DEN_405"])
        XCTAssertEqual(pants.map { $0[.option1Value] }, ["28", "30", "40"])
        XCTAssertEqual(pants.map { $0[.stock] }, ["20", "15", "10"])
        XCTAssertEqual(pants.map { $0[.price] }, ["95", "95", "95"])
        let hat = try XCTUnwrap(result.variants(of: "example-hat").first)
        XCTAssertEqual(hat.fields, [
            "handle": "example-hat", "sku": "HAT_GRY_275", "name": "Example Beanie",
            "description": "Our beanie is a must-have accessory from our heritage brand and dead stock yarn. Made with recycled materials, it not only adds style but also promotes sustainability. Expertly crafted using 100% cotton yarns, making it both unique and super soft.",
            "category": "Hat", "brand": "Acme", "status": "archived", "price": "17.99", "stock": "50",
        ], "Title / Default Title is Shopify's product without options")
    }

    func test_template_columnsKeptNowhere_areListedOnceInFileOrder() throws {
        let result = try PlatformFixtures.translate(.shopify, fixture: fixture)
        XCTAssertEqual(result.report.ignoredColumns, [
            "Tags", "Variant Grams", "Variant Inventory Tracker", "Variant Inventory Policy", "Variant Fulfillment Service",
            "Variant Compare At Price", "Variant Requires Shipping", "Variant Taxable", "Variant Barcode", "Image Src",
            "Image Position", "Image Alt Text", "Gift Card", "SEO Title", "SEO Description",
            "Google Shopping / Google Product Category", "Google Shopping / Gender", "Google Shopping / Age Group",
            "Google Shopping / MPN", "Google Shopping / Condition", "Google Shopping / Custom Product", "Variant Image",
            "Variant Weight Unit", "Variant Tax Code", "Cost per item", "Included / United States", "Price / United States",
            "Compare At Price / United States", "Included / International", "Price / International",
            "Compare At Price / International",
        ])
    }

    func test_template_readByteByByte_givesTheSameRecords() throws {
        let bytes = try PlatformFixtures.bytes(fixture)
        let whole = PlatformFixtures.translate(.shopify, bytes)
        let trickled = PlatformFixtures.translate(.shopify, bytes, chunkSizes: [1, 3, 7])
        XCTAssertEqual(trickled.records, whole.records)
    }

    func test_currencyOption_isCarriedByEveryRecord() throws {
        let result = try PlatformFixtures.translate(.shopify, fixture: fixture, options: PlatformImportOptions(currency: "CAD"))
        XCTAssertEqual(Set(result.records.map { $0[.currency] }), ["CAD"])
    }

    func test_variantWithoutSKU_getsOneMadeOfHandleAndOptions_uniqueInTheFile() {
        let result = PlatformFixtures.translate(.shopify, text: """
            Handle,Title,Option1 Name,Option1 Value,Variant SKU,Variant Price
            mug,Mug,Colour,Blue / Navy,,10.00
            mug,,,Blue Navy,,10.00
            mug,,,Red,mug-red,12
            """)
        XCTAssertTrue(result.errors.isEmpty, "\(result.errors.report(file: "-"))")
        XCTAssertEqual(result.records.map { $0[.sku] }, ["mug-blue-navy", "mug-blue-navy-2", "mug-red"])
        XCTAssertEqual(result.records.map { $0[.price] }, ["10.00", "10.00", "12"])
    }

    func test_negativeInventory_isReadAsZero_andCounted() {
        let result = PlatformFixtures.translate(.shopify, text: "Handle,Title,Variant SKU,Variant Price,Variant Inventory Qty\ncap,Cap,CAP-1,5,-3\n")
        XCTAssertEqual(result.records.first?[.stock], "0")
        XCTAssertEqual(result.report.negativeStockAsZero, 1)
    }

    func test_badValues_areErrorsNamingTheShopifyColumnAndLine_andReadingGoesOn() {
        let result = PlatformFixtures.translate(.shopify, text: """
            Handle,Title,Status,Variant SKU,Variant Price,Variant Inventory Qty
            a,A,active,A-1,1.5.0,1
            b,B,sold,B-1,2,1
            c,C,active,C-1,3,many
            d,D,draft,D-1,4,1
            a,,,A-2,1,1
            """)
        XCTAssertEqual(result.errors.report(file: "f.csv"), [
            "f.csv:2: Variant Price: \"1.5.0\" is not a price in currency units (such as 19.99)",
            "f.csv:3: Status: \"sold\" is not active, draft or archived",
            "f.csv:4: Variant Inventory Qty: \"many\" is not a whole number",
            "f.csv:6: Handle: \"a\" comes back after another product's rows; a product's rows must follow each other",
        ])
        XCTAssertEqual(result.records.map { $0[.sku] }, ["D-1"])
    }

    func test_aFileWithoutHandle_isNotShopifys() {
        let result = PlatformFixtures.translate(.shopify, text: "sku,name\nA,B\n")
        XCTAssertEqual(result.records, [])
        XCTAssertEqual(result.errors.shown.map(\.field), ["header"])
        XCTAssertTrue(result.errors.shown[0].message.hasPrefix("no Handle column"))
    }
}
