import XCTest
@testable import ShopAPI

/// Products with variants and product status on both stores: rows sharing a handle are one
/// product's variants (product fields filled down from its first row), listings and search give
/// one entry per product with its variants, drafts and archived products stay out of the
/// shoppers' sight, a product field set on one variant is set on all, and a round trip through
/// `export products` keeps every product's place.
final class CatalogVariantsTests: StoreContractTestCase {
    /// A 2-variant hoodie in S and M (product fields on its first row only), a draft mug and a tee,
    /// in an order that is not SKU order.
    static let hoodieFile = """
        sku,name,description,category,priceCents,currency,stock,handle,brand,status,option1Name,option1Value
        HOOD-S,Hoodie,Warm and soft,apparel,4500,USD,3,hoodie,Acme,,Size,S
        HOOD-M,,,,4700,,0,hoodie,,,,M
        MUG-1,Mug,,kitchen,900,USD,5,,,draft,,
        A-TEE,Tee,,apparel,1500,USD,0,,,,,

        """

    /// Reads `text` with the catalog file reader and imports its rows into `service`; returns the
    /// outcome and every error (the reader's, then the import's) as `LINE: field: message`.
    @discardableResult
    private func importFile(_ text: String, format: CatalogFileFormat = .csv, replace: Bool = false,
                            into target: ShopService? = nil) throws -> (outcome: CatalogImportOutcome, errors: [String]) {
        let (rows, fileErrors) = readCatalog(Array(text.utf8), format: format)
        let errors = fileErrors.shown.map { RowListSource.Error(line: $0.line, field: $0.field, message: $0.message) }
        let (outcome, importErrors) = try (target ?? service).importRows(rows, replace: replace, fileErrors: errors)
        return (outcome, importErrors.map(\.description))
    }

    private func exported(_ target: ShopService? = nil, format: CatalogFileFormat = .csv) throws -> String {
        var writer = RecordWriter(format: format, columns: ExportSubject.products.columns, sink: MemorySink())
        try (target ?? service).export(.products, since: nil, to: &writer)
        try writer.finish()
        return String(decoding: writer.sink.bytes, as: UTF8.self)
    }

    private static func size(_ value: String) -> ProductOption { ProductOption(name: "Size", value: value) }

    // MARK: - Variants

    func test_import_handleRows_areOneProduct_listedOnceWithItsVariants_andFilledDown() throws {
        try forEachStore(creation: .empty) {
            let (outcome, errors) = try importFile(Self.hoodieFile)
            XCTAssertEqual(errors, [])
            XCTAssertEqual(outcome.summary, CatalogImportSummary(rows: 4, created: 4, stockSet: 4))

            let page = try service.listCatalog(cursor: nil, limit: 10, category: nil, interruption: nil)
            XCTAssertEqual(page.items.map(\.handle), ["hoodie", "A-TEE"], "one entry per product, in file order; the draft left out")
            guard page.items.count == 2 else { return }
            let hoodie = page.items[0]
            XCTAssertEqual(hoodie.sku, "HOOD-S")
            XCTAssertEqual(hoodie.name, "Hoodie")
            XCTAssertEqual(hoodie.brand, "Acme")
            XCTAssertEqual(hoodie.priceCents, 4500)
            XCTAssertEqual([hoodie.priceMinCents, hoodie.priceMaxCents], [4500, 4700])
            XCTAssertTrue(hoodie.inStock)
            XCTAssertEqual(hoodie.variants, [
                VariantChoice(sku: "HOOD-S", options: [Self.size("S")], priceCents: 4500, inStock: true),
                VariantChoice(sku: "HOOD-M", options: [Self.size("M")], priceCents: 4700, inStock: false),
            ])
            let tee = page.items[1]
            XCTAssertEqual(tee.variants, [VariantChoice(sku: "A-TEE", options: [], priceCents: 1500, inStock: false)])
            XCTAssertEqual([tee.handle, tee.brand], ["A-TEE", ""])
            XCTAssertFalse(tee.inStock)

            XCTAssertEqual(try service.product(sku: "HOOD-M", interruption: nil), Product(
                sku: "HOOD-M", name: "Hoodie", description: "Warm and soft", category: "apparel", priceCents: 4700, currency: "USD",
                handle: "hoodie", brand: "Acme", options: [Self.size("M")]), "the product's fields filled down to the later row")
            let product = try service.catalogProduct(handle: "hoodie", interruption: nil)
            XCTAssertEqual(product, ProductWithVariants(
                handle: "hoodie", name: "Hoodie", description: "Warm and soft", category: "apparel", brand: "Acme", optionNames: ["Size"],
                currency: "USD", variants: [
                    ProductVariant(sku: "HOOD-S", options: [Self.size("S")], priceCents: 4500, available: 3),
                    ProductVariant(sku: "HOOD-M", options: [Self.size("M")], priceCents: 4700, available: 0),
                ]))
            XCTAssertEqual(try service.countProducts(category: nil, interruption: nil).count, 2)
            XCTAssertEqual(try service.countProducts(category: "apparel", interruption: nil).count, 2)
            let found = try service.searchItems("hoodie", limit: 10)
            XCTAssertEqual(found.map(\.handle), ["hoodie"], "found once, not once per variant")
            XCTAssertEqual(found.first?.variants.count, 2)
            XCTAssertEqual(try service.searchItems("apparel", limit: 10).map(\.handle), ["hoodie", "A-TEE"])
        }
    }

    func test_listCatalog_pagesMoveOverProducts_inCatalogOrder() throws {
        try forEachStore(creation: .empty) {
            try importFile(Self.hoodieFile)
            try importFile("sku,name,category,priceCents,handle,option1Name,option1Value\nB-CAP,Cap,apparel,900,cap,Colour,Red\nB-CAP-2,,,950,cap,,Blue\n")
            let pages = try service.catalogPages(pageSize: 1)
            XCTAssertEqual(pages.flatMap(\.items).map(\.handle), ["hoodie", "A-TEE", "cap"])
            XCTAssertEqual(pages.flatMap(\.items).map(\.variants.count), [2, 1, 2])
            XCTAssertEqual(try service.catalogPages(pageSize: 1, category: "apparel").flatMap(\.items).map(\.handle), ["hoodie", "A-TEE", "cap"])
        }
    }

    func test_newVariant_inALaterImport_joinsTheProduct_andTakesItsFields() throws {
        try forEachStore(creation: .empty) {
            try importFile(Self.hoodieFile)
            let (outcome, errors) = try importFile("sku,priceCents,stock,handle,option1Value\nHOOD-L,4900,2,hoodie,L\n")
            XCTAssertEqual(errors, [])
            XCTAssertEqual(outcome.summary.created, 1)
            let product = try service.catalogProduct(handle: "hoodie", interruption: nil)
            XCTAssertEqual(product.variants.map(\.sku), ["HOOD-S", "HOOD-M", "HOOD-L"])
            XCTAssertEqual(try service.product(sku: "HOOD-L", interruption: nil).name, "Hoodie")
            XCTAssertEqual(try service.searchItems("hoodie", limit: 10).map(\.variants.count), [3])
        }
    }

    func test_variantWithTheOptionValuesOfAStoredVariant_isAnError_inALaterImport() throws {
        try forEachStore(creation: .empty) {
            try importFile(Self.hoodieFile)
            let (outcome, errors) = try importFile("sku,priceCents,handle,option1Value\nHOOD-M2,4700,hoodie,M\n")
            XCTAssertFalse(outcome.committed)
            XCTAssertEqual(errors, [#"2: option1Value: HOOD-M is the variant "M" of "hoodie" already; two variants of a product cannot have the same option values"#])
            let (changed, changeErrors) = try importFile("sku,option1Value\nHOOD-S,M\n")
            XCTAssertFalse(changed.committed)
            XCTAssertEqual(changeErrors.count, 1)
            XCTAssertEqual(try importFile("sku,option1Value\nHOOD-S,XS\n").errors, [], "values of its own, or no other variant's, are fine")
            XCTAssertEqual(try service.product(sku: "HOOD-S", interruption: nil).options, [Self.size("XS")])
        }
    }

    func test_productField_setThroughOneVariant_changesEveryVariant_andSearch() throws {
        try forEachStore(creation: .empty) {
            try importFile(Self.hoodieFile)
            let (_, errors) = try importFile("sku,name\nHOOD-M,Fleece Top\n")
            XCTAssertEqual(errors, [])
            XCTAssertEqual(try service.product(sku: "HOOD-S", interruption: nil).name, "Fleece Top", "the other variant too")
            XCTAssertEqual(try service.catalogProduct(handle: "hoodie", interruption: nil).name, "Fleece Top")
            XCTAssertEqual(try service.searchItems("fleece", limit: 10).map(\.handle), ["hoodie"])
            let byOldName = try service.searchItems("hoodie", limit: 10)
            XCTAssertEqual(byOldName.map(\.handle), ["hoodie"], "still found by its handle")
            XCTAssertEqual(try service.searchProducts(ProductSearchRequest(query: "hoodie", highlights: true), interruption: nil)
                .items.first?.highlights?.name, [], "but no longer by its name")
        }
    }

    func test_variant_cannotMoveToAnotherProduct_norChangeItsNumberOfOptions() throws {
        try forEachStore(creation: .empty) {
            try importFile(Self.hoodieFile)
            let (outcome, errors) = try importFile("sku,handle,option1Name,option1Value,option2Name,option2Value\nHOOD-M,A-TEE,,,,\nHOOD-S,,Size,S,Colour,Red\n")
            XCTAssertFalse(outcome.committed)
            XCTAssertEqual(errors.map { $0.components(separatedBy: ": ").prefix(2).joined(separator: ": ") }, ["2: handle", "3: option2Name"])
        }
    }

    // MARK: - File-level rules

    func test_laterRowOfAHandle_givingAnotherProductField_isAnErrorNamingTheRowAndField() {
        let (rows, errors) = readCatalog("""
            sku,name,category,priceCents,handle,brand
            H-S,Hoodie,apparel,100,h,Acme
            H-M,Hoodie,apparel,100,h,
            H-L,Hoody,apparel,100,h,Other

            """, format: .csv)
        XCTAssertEqual(rows.map(\.sku), ["H-S", "H-M"])
        XCTAssertEqual(rows[1].brand, "Acme", "left empty, filled down")
        XCTAssertEqual(errorLines(errors), [
            #"4: name: "Hoody" differs from "Hoodie", given for the product "h" on line 2; a product's fields are the same on every variant"#,
            #"4: brand: "Other" differs from "Acme", given for the product "h" on line 2; a product's fields are the same on every variant"#,
        ])
    }

    func test_optionValues_missing_repeated_orWithoutTheirName_areErrors() {
        let (rows, errors) = readCatalog("""
            sku,name,category,priceCents,handle,option1Name,option1Value,option2Name,option2Value
            H-S,Hoodie,apparel,100,h,Size,S,,
            H-S2,,,100,h,,S,,
            H-X,,,100,h,,,,
            T-1,Tee,apparel,100,,,,Colour,Red

            """, format: .csv)
        XCTAssertEqual(rows.map(\.sku), ["H-S"])
        XCTAssertEqual(errorLines(errors), [
            #"3: option1Value: the variant "S" is given on line 2 already; two variants of a product cannot have the same option values"#,
            "4: option1Value: missing; the product's options are Size and each variant has a value for each",
            "5: option2Name: given without option1Name; options are given from the first on",
        ])
    }

    /// WooCommerce's own sample file gives a variation added later after other products: the
    /// reader reads such a row as a later import's row of that handle (no fill-down from the
    /// earlier run; the store joins it to the product), so the file goes in as exported.
    func test_aHandleThatComesBackAfterOtherProducts_isReadAsARowOfThatHandle_notFilledDown() {
        let (rows, errors) = readCatalog("""
            sku,name,category,priceCents,handle
            H-S,Hoodie,apparel,100,h
            T-1,Tee,apparel,100,t
            H-M,,,100,h
            T-2,Tee 2,apparel,100,

            """, format: .csv)
        XCTAssertEqual(rows.map(\.sku), ["H-S", "T-1", "H-M", "T-2"])
        XCTAssertEqual(errorLines(errors), [])
        XCTAssertEqual(rows[2].handle, "h")
        XCTAssertNil(rows[2].name, "not filled down from line 2: the store's product gives it")
    }

    func test_ndjson_handleLines_areFilledDownAsCSVRows() {
        let (rows, errors) = readCatalog("""
            {"sku":"H-S","name":"Hoodie","category":"apparel","priceCents":100,"handle":"h","status":"draft","option1Name":"Size","option1Value":"S"}
            {"sku":"H-M","priceCents":100,"handle":"h","option1Value":"M"}
            {"sku":"H-L","priceCents":100,"handle":"h","status":"sold","option1Value":"L"}

            """, format: .ndjson)
        XCTAssertEqual(errorLines(errors), [#"3: status: "sold" is not a status (active, draft, archived)"#])
        XCTAssertEqual(rows.count, 2)
        XCTAssertEqual(rows[1], CatalogRow(line: 2, sku: "H-M", name: "Hoodie", category: "apparel", priceCents: 100, handle: "h",
                                           status: .draft, optionNames: ["Size"], optionValues: ["M"]))
    }

    func test_fileWithoutHandleColumn_readsAsBefore_emptyDescriptionIsAValue() {
        let (rows, errors) = readCatalog("sku,name,description,category,priceCents\nA,Mug,,kitchen,100\nB,,x,kitchen,100\n", format: .csv)
        XCTAssertEqual(rows, [CatalogRow(line: 2, sku: "A", name: "Mug", description: "", category: "kitchen", priceCents: 100)])
        XCTAssertEqual(errorLines(errors), ["3: name: empty"])
    }

    // MARK: - Status

    func test_draftAndArchived_areInvisibleToShoppers_visibleInExport_andAdminsChangeTheStatus() throws {
        try forEachStore(creation: .empty) {
            try importFile(Self.hoodieFile)
            for read in [{ try self.service.product(sku: "MUG-1", interruption: nil) as Any },
                         { try self.service.catalogProduct(handle: "MUG-1", interruption: nil) as Any },
                         { try self.service.checkInventory(skus: ["MUG-1"], interruption: nil) as Any }] {
                XCTAssertThrowsError(try read()) { XCTAssertEqual($0 as? ShopError, .notFound(entity: "product", id: "MUG-1")) }
            }
            XCTAssertEqual(service.addToCartAndWait("c", "MUG-1", 1), .failure(.notFound(entity: "product", id: "MUG-1")))
            XCTAssertEqual(try service.searchItems("mug", limit: 5), [])
            XCTAssertTrue(try exported().contains("MUG-1,Mug,,kitchen,900,USD,5,MUG-1,,draft,"), "a draft is exported, with its status")

            let summary = try service.upsertProducts(ndjson: Array(#"{"sku":"MUG-1","status":"active"}"#.utf8), actor: nil, interruption: nil)
            XCTAssertEqual(summary.updated, 1)
            XCTAssertEqual(try service.product(sku: "MUG-1", interruption: nil).name, "Mug")
            XCTAssertEqual(try service.searchItems("mug", limit: 5).map(\.sku), ["MUG-1"])

            XCTAssertEqual(service.archiveProductsAndWait(["HOOD-M"]), .success(ProductsArchived(archived: 1)))
            XCTAssertThrowsError(try service.product(sku: "HOOD-S", interruption: nil), "archiving a variant archives its product")
            XCTAssertEqual(try service.allProducts().map(\.handle), ["MUG-1", "A-TEE"], "the mug back in its place")
            XCTAssertFalse(try exported().contains("hoodie"), "archived products stay out of the export")
            _ = try service.upsertProducts(ndjson: Array(#"{"sku":"HOOD-S","status":"draft"}"#.utf8), actor: nil, interruption: nil)
            XCTAssertTrue(try exported().contains("HOOD-M,Hoodie,Warm and soft,apparel,4700,USD,0,hoodie,Acme,draft,Size,M"))
        }
    }

    func test_replace_archivesProductsWithNoListedVariant_keepsOnesWithAListedVariant() throws {
        try forEachStore(creation: .empty) {
            try importFile(Self.hoodieFile)
            let (outcome, errors) = try importFile("sku,stock\nHOOD-M,1\n", replace: true)
            XCTAssertEqual(errors, [])
            XCTAssertEqual(outcome.summary.archived, 2, "the tee and the draft mug; not the hoodie, one of whose variants is listed")
            XCTAssertEqual(try service.allProducts().map(\.handle), ["hoodie"])
            XCTAssertEqual(try service.catalogProduct(handle: "hoodie", interruption: nil).variants.map(\.available), [3, 1])
        }
    }

    // MARK: - Round trip

    func test_roundTrip_exportThenImportIntoANewStore_isIdentical_andKeepsCatalogOrder() throws {
        try forEachStore(creation: .empty) {
            try importFile(Self.hoodieFile)
            try importFile("sku,priceCents,handle,option1Value\nHOOD-L,4900,hoodie,L\n")
            for format in [CatalogFileFormat.csv, .ndjson] {
                let first = try exported(format: format)
                let other = try storeUnderTest.open(creation: .empty)
                defer { other.remove() }
                let (outcome, errors) = try importFile(first, format: format, into: other.service)
                XCTAssertEqual(errors, [])
                XCTAssertTrue(outcome.committed)
                XCTAssertEqual(try exported(other.service, format: format), first, "\(format)")
                XCTAssertEqual(try other.service.allProducts(), try service.allProducts(), "the same products in the same places")
                XCTAssertEqual(try other.service.allProducts().map(\.handle), ["hoodie", "A-TEE"])
                XCTAssertEqual(try other.service.catalogProduct(handle: "hoodie", interruption: nil),
                               try service.catalogProduct(handle: "hoodie", interruption: nil))
            }
        }
    }
}
