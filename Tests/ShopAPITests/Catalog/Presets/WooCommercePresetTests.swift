import XCTest
@testable import ShopAPI

/// WooCommerce's own files through the preset (Tests/Fixtures/Platforms, sources in the README
/// there): the sample data it ships (`woocommerce-sample_products.csv`) and its importer's test
/// file (`woocommerce-importer-test-sample.csv`).
final class WooCommercePresetTests: XCTestCase {
    private let sample = "woocommerce-sample_products.csv"
    private let importerTest = "woocommerce-importer-test-sample.csv"

    func test_sampleData_givesSimpleProductsAndVariations_skipsGroupedAndExternal() throws {
        let result = try PlatformFixtures.translate(.woocommerce, fixture: sample)
        XCTAssertTrue(result.errors.isEmpty, "\(result.errors.report(file: sample))")
        XCTAssertEqual(result.rowsRead, 25)
        XCTAssertEqual(result.records.count, 21, "14 simple products and 7 variations; the 2 variable parents are folded into them")
        XCTAssertEqual(result.report.skippedRows, [.grouped: 1, .external: 1])
        XCTAssertEqual(result.variants(of: "woo-vneck-tee").map { $0[.sku] }, ["woo-vneck-tee-red", "woo-vneck-tee-green", "woo-vneck-tee-blue"])
        XCTAssertEqual(result.variants(of: "woo-hoodie").map { $0[.sku] },
                       ["woo-hoodie-red", "woo-hoodie-green", "woo-hoodie-blue", "woo-hoodie-blue-logo"])
        XCTAssertEqual(Set(result.records.map { $0[.status] }), ["active"])
    }

    func test_sampleData_variation_takesItsParentsProductFields_andItsOwnOptionsPriceAndSKU() throws {
        let result = try PlatformFixtures.translate(.woocommerce, fixture: sample)
        let red = try XCTUnwrap(result.records.first { $0[.sku] == "woo-hoodie-red" })
        XCTAssertEqual(red.line, 19)
        XCTAssertEqual(red.fields, [
            "handle": "woo-hoodie", "sku": "woo-hoodie-red", "name": "Hoodie",
            "description": "Pellentesque habitant morbi tristique senectus et netus et malesuada fames ac turpis egestas. Vestibulum tortor quam, feugiat vitae, ultricies eget, tempor sit amet, ante. Donec eu libero sit amet quam egestas semper. Aenean ultricies mi vitae est. Mauris placerat eleifend leo.",
            "category": "Clothing > Hoodies", "status": "active",
            "option1Name": "Color", "option1Value": "Red", "option2Name": "Logo", "option2Value": "No",
            "price": "45",
        ], "the regular price, not the sale price (42)")
        let vneckRed = try XCTUnwrap(result.records.first { $0[.sku] == "woo-vneck-tee-red" })
        XCTAssertEqual(vneckRed[.option1Name], "Color")
        XCTAssertEqual(vneckRed[.option1Value], "Red")
        XCTAssertNil(vneckRed[.option2Name], "an empty Size is WooCommerce's 'any size': no option")
        XCTAssertEqual(vneckRed[.name], "Awesome V-Neck T-Shirt")
    }

    func test_sampleData_simpleProduct_isOneVariantWithoutOptions_handleFromItsSKU() throws {
        let result = try PlatformFixtures.translate(.woocommerce, fixture: sample)
        let beanie = try XCTUnwrap(result.records.first { $0[.sku] == "Woo-beanie-logo" })
        XCTAssertEqual(beanie.fields, [
            "handle": "woo-beanie-logo", "sku": "Woo-beanie-logo", "name": "Beanie with Logo",
            "description": "Pellentesque habitant morbi tristique senectus et netus et malesuada fames ac turpis egestas. Vestibulum tortor quam, feugiat vitae, ultricies eget, tempor sit amet, ante. Donec eu libero sit amet quam egestas semper. Aenean ultricies mi vitae est. Mauris placerat eleifend leo.",
            "category": "Clothing > Accessories", "status": "active", "price": "20",
        ], "Stock is empty and In stock? is 1: WooCommerce does not count it, and no stock is given")
        let album = try XCTUnwrap(result.records.first { $0[.sku] == "woo-album" })
        XCTAssertEqual(album[.category], "Music")
        XCTAssertEqual(album[.price], "15")
    }

    func test_sampleData_columnsKeptNowhere_areListedOnce() throws {
        let result = try PlatformFixtures.translate(.woocommerce, fixture: sample)
        XCTAssertEqual(result.report.ignoredColumns, [
            "Is featured?", "Visibility in catalog", "Date sale price starts", "Date sale price ends", "Tax status",
            "Tax class", "Backorders allowed?", "Sold individually?", "Weight (lbs)", "Length (in)", "Width (in)",
            "Height (in)", "Allow customer reviews?", "Purchase note", "Sale price", "Tags", "Shipping class", "Images",
            "Download limit", "Download expiry days", "Grouped products", "Upsells", "Cross-sells", "External URL",
            "Button text", "Position", "Attribute 1 visible", "Attribute 1 global", "Attribute 2 visible",
            "Attribute 2 global", "Meta: _wpcom_is_markdown", "Download 1 name", "Download 1 URL", "Download 2 name",
            "Download 2 URL",
        ])
    }

    func test_importerTestFile_variationsWithoutSKU_getStableSKUsFromTheParentAndOptions() throws {
        let result = try PlatformFixtures.translate(.woocommerce, fixture: importerTest)
        XCTAssertTrue(result.errors.isEmpty, "\(result.errors.report(file: importerTest))")
        XCTAssertEqual(result.records.map { $0[.sku] }, ["WOOLOGO", "WOOALBUM", "WOOIDEA-black-m", "WOOIDEA-green-l"])
        XCTAssertEqual(result.records.map { $0[.handle] }, ["woologo", "wooalbum", "wooidea", "wooidea"])
        XCTAssertEqual(result.records.map { $0[.price] }, ["20", "5", "20", "20"])
        XCTAssertEqual(result.records.map { $0[.stock] }, ["5", nil, "6", "10"])
        XCTAssertEqual(result.records.map { $0[.category] }, ["Clothing > T-shirts", "Music > Albums", "Clothing > T-shirts", "Clothing > T-shirts"])
        XCTAssertEqual(result.records[2].fields["option1Name"], "Color")
        XCTAssertEqual(result.records[2].fields["option2Value"], "M")
        XCTAssertEqual(result.report.skippedRows, [.external: 1, .grouped: 1])
        XCTAssertTrue(result.report.ignoredColumns.contains("Attribute 1 default"))
        XCTAssertFalse(result.report.ignoredColumns.contains("Attribute 1 Value(s)"), "attribute columns are read whatever their case")
    }

    func test_published_mapsToStatus_andADisabledVariationIsSkipped() {
        let result = PlatformFixtures.translate(.woocommerce, text: """
            ID,Type,SKU,Name,Published,Regular price,Parent,Attribute 1 name,Attribute 1 value(s)
            1,simple,A,Alpha,0,1,,,
            2,simple,B,Beta,-1,1,,,
            3,variable,C,Gamma,1,,,Size,"S, M"
            4,variation,,,1,2,id:3,Size,S
            5,variation,,,0,2,C,Size,M
            6,simple,D,Delta,'-1,1,,,
            """)
        XCTAssertTrue(result.errors.isEmpty, "\(result.errors.report(file: "-"))")
        XCTAssertEqual(result.records.map { $0[.sku] }, ["A", "B", "C-s", "D"])
        XCTAssertEqual(result.records.map { $0[.status] }, ["draft", "draft", "active", "draft"])
        XCTAssertEqual(result.report.skippedRows, [.disabledVariation: 1])
    }

    func test_variationBeforeOrWithoutItsParent_isAnErrorNamingParent() {
        let result = PlatformFixtures.translate(.woocommerce, text: """
            Type,SKU,Name,Regular price,Parent
            variation,X-1,,3,X
            variable,X,Ex,,
            variation,X-2,,3,
            """)
        XCTAssertEqual(result.errors.report(file: "w.csv"), [
            "w.csv:2: Parent: \"X\" is not a variable product on a line above",
            "w.csv:4: Parent: empty; a variation names its variable product (id:NN or its SKU)",
        ])
    }

    func test_categoryPaths_deepestFirstWins_longOnesKeepTheirLastLevel_noneIsUncategorized() {
        XCTAssertEqual(PresetText.category(fromPaths: ["Clothing", " Clothing>T-shirts ", "Music > Albums"]), "Clothing > T-shirts")
        let long = String(repeating: "Departments", count: 4) + " > " + String(repeating: "Outerwear", count: 4) + " > Rain jackets"
        XCTAssertEqual(PresetText.category(fromPaths: [long]), "Rain jackets")
        XCTAssertNil(PresetText.category(fromPaths: []))
        let result = PlatformFixtures.translate(.woocommerce, text: "Type,SKU,Name,Regular price,Categories\nsimple,A,Alpha,1,\n")
        XCTAssertEqual(result.records.first?[.category], "Uncategorized")
    }
}
