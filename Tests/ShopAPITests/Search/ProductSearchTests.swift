import XCTest
@testable import ShopAPI

/// `ShopService.searchProducts` end to end, one test per bullet of issue #42's "Why", each run on
/// the in-memory reference store, SQLite with its FTS5 index and SQLite without it (scan), which
/// must give identical pages.
final class ProductSearchTests: XCTestCase {
    /// A small shop as shops write it: brands with apostrophes, hyphenated words, SKUs, words
    /// only in descriptions.
    private static let rows: [CatalogRow] = {
        var rows: [CatalogRow] = []
        func add(_ sku: String, _ name: String, brand: String = "", category: String = "coffee", description: String = "",
                 price: Int = 1000, stock: Int = 5, handle: String? = nil, options: [String]? = nil, values: [String]? = nil) {
            rows.append(CatalogRow(line: rows.count + 2, sku: sku, name: name, description: description, category: category,
                                   priceCents: price, stock: stock, handle: handle, brand: brand, optionNames: options, optionValues: values))
        }
        add("GRN-BRUSH", "Grinder Cleaning Brush", brand: "Baratza", category: "accessories", price: 900)
        add("GRN-BURR", "Conical Burr Set for Grinder", brand: "Baratza", category: "parts", price: 3900)
        add("GRN-HOPPER", "Hopper Lid for Coffee Grinder", brand: "Baratza", category: "parts", price: 1200)
        add("GRN-ELEC", "Electric Coffee Grinder", brand: "Baratza", category: "grinders", price: 14900)
        add("GRN-MAN", "Manual Coffee Grinder", brand: "Hario", category: "grinders", price: 4900)
        add("GRN-MAN2", "Coffee Grinder with Manual Crank", brand: "Timemore", category: "grinders", price: 8900)
        add("ESP-DED", "Dedica Espresso Machine", brand: "De'Longhi", category: "machines", price: 29900)
        add("ESP-GAG", "Classic Pro Espresso Machine", brand: "Gaggia", category: "machines", price: 44900, stock: 0)
        add("KNF-CHEF", "Chef's Knife 8 inch", brand: "Victorinox", category: "kitchen", price: 5900)
        add("KNF-PAR", "Paring Knife", brand: "Victorinox", category: "kitchen", price: 1900)
        add("BRZ-ENC-001", "Encore Burr Grinder", brand: "Baratza", category: "grinders", price: 16900)
        add("KIE-UFC", "Ultra Facial Cream", brand: "Kiehl's", category: "skincare", price: 3800)
        add("BEAN-ORG", "House Blend Beans", brand: "Stumptown", category: "beans",
            description: "Organic coffee from Peru, roasted weekly.", price: 1800)
        add("V60-FLT", "Paper Filters for V60", brand: "Hario", category: "filters", price: 700)
        add("V60-DRP", "V60 Dripper", brand: "Hario", category: "brewers", price: 2500)
        add("PO-KETTLE", "Pour-Over Kettle", brand: "Fellow", category: "kettles", price: 16500)
        add("PO-STAND", "Pour-Over Stand", brand: "Hario", category: "brewers", price: 3500)
        add("TEE-S", "Logo Tee", brand: "Shop", category: "apparel", price: 2000, handle: "logo-tee", options: ["Size"], values: ["S"])
        add("TEE-M", "Logo Tee", brand: "Shop", category: "apparel", price: 2200, handle: "logo-tee", options: ["Size"], values: ["M"])
        return rows
    }()

    /// The same catalog in each store: in memory (the reference), SQLite with FTS5, SQLite scanning.
    private func services(_ rows: [CatalogRow] = rows) throws -> [(name: String, service: ShopService)] {
        let services = [
            ("in-memory", ShopService(store: InMemoryShopStore(products: []))),
            ("SQLite", try ShopService.open(path: ":memory:", creation: .empty)),
            ("SQLite scan", ShopService(store: try SQLiteShopStore.open(path: ":memory:", creation: .empty, allowFullTextSearch: false))),
        ]
        for (name, service) in services {
            let (outcome, errors) = try service.importRows(rows)
            XCTAssertEqual(errors, [], name)
            XCTAssertTrue(outcome.committed, name)
        }
        return services
    }

    /// The page of `request` on every store, checked identical; the reference's.
    private func page(_ request: ProductSearchRequest, in services: [(name: String, service: ShopService)],
                      file: StaticString = #filePath, line: UInt = #line) throws -> ProductSearchPage {
        let pages = try services.map { try $0.service.searchProducts(request, interruption: nil) }
        for (index, page) in pages.enumerated().dropFirst() {
            XCTAssertEqual(page, pages[0], "\(services[index].name) differs for \(request.query.debugDescription)", file: file, line: line)
        }
        return pages[0]
    }

    private func skus(_ query: String, in services: [(name: String, service: ShopService)],
                      file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        try page(ProductSearchRequest(query: query, limit: 200), in: services, file: file, line: line).items.map(\.sku)
    }

    // MARK: - Why

    func test_typos_findTheWordMeant_andSayWhatTheQueryWasReadAs() throws {
        let services = try services()
        let page = try page(ProductSearchRequest(query: "expresso machine"), in: services)
        XCTAssertEqual(Set(page.items.map(\.sku)), ["ESP-DED", "ESP-GAG"])
        XCTAssertEqual(page.readAs, "espresso machine")
        XCTAssertEqual(page.corrections, [SearchWordCorrection(word: "expresso", readAs: "espresso")])
        XCTAssertEqual(try skus("grnder", in: services).first.map { ["GRN-BRUSH", "GRN-BURR", "GRN-HOPPER", "GRN-ELEC", "GRN-MAN", "GRN-MAN2", "BRZ-ENC-001"].contains($0) }, true)
    }

    /// A word no product can match is left out wherever it is (not only from the end), so the
    /// words after it still count; a query of only such words finds nothing. (This catalog is
    /// smaller than `ProductSearch.minimumMatches`, so the last words are tried without too; a
    /// word whose leaving out adds no product is not reported.)
    func test_aWordNoProductCanMatch_isLeftOutFirst_wherever_itIs() throws {
        let services = try services()
        let first = try page(ProductSearchRequest(query: "which paring knife"), in: services)
        XCTAssertEqual(first.items.first?.sku, "KNF-PAR")
        XCTAssertEqual(first.droppedWords, ["which"], "leaving out knife too would add no product")
        let middle = try page(ProductSearchRequest(query: "manual zqx grinder"), in: services)
        XCTAssertEqual(middle.items.prefix(2).map(\.sku), ["GRN-MAN", "GRN-MAN2"], "both words matched, so ranked first")
        XCTAssertEqual(middle.droppedWords, ["zqx"])
        let none = try page(ProductSearchRequest(query: "zqx wvu"), in: services)
        XCTAssertEqual(none.items, [])
        XCTAssertEqual(none.total, 0)
        XCTAssertNil(none.droppedWords)
        let plural = try page(ProductSearchRequest(query: "knives"), in: services)
        XCTAssertEqual(Set(plural.items.map(\.sku)), ["KNF-PAR", "KNF-CHEF"], "a word found by its plural is not left out")
    }

    func test_plurals_findTheSingular() throws {
        let services = try services()
        XCTAssertEqual(Set(try skus("espresso machines", in: services)), ["ESP-DED", "ESP-GAG"])
        XCTAssertEqual(Set(try skus("knives", in: services)), ["KNF-CHEF", "KNF-PAR"])
    }

    func test_anySkuOrTheHandle_findsItsProductFirst() throws {
        let services = try services()
        XCTAssertEqual(try skus("BRZ-ENC-001", in: services).first, "BRZ-ENC-001")
        XCTAssertEqual(try skus("brz enc 001", in: services).first, "BRZ-ENC-001")
        XCTAssertEqual(try skus("TEE-M", in: services), ["TEE-S"], "the product of the second variant's SKU, once")
        XCTAssertEqual(try skus("logo-tee", in: services), ["TEE-S"])
        let decoy = Self.rows + [newRow("DECOY", line: 99, name: "Tee M Logo Tee", category: "apparel")]
        XCTAssertEqual(try skus("TEE-M", in: try self.services(decoy)).first, "TEE-S",
                       "a second variant's SKU ranks its product before one whose name has the same words")
    }

    func test_brandsWithoutTheApostrophe() throws {
        let services = try services()
        XCTAssertEqual(try skus("delonghi", in: services), ["ESP-DED"])
        XCTAssertEqual(try skus("kiehls", in: services), ["KIE-UFC"])
        XCTAssertEqual(try skus("kiehl", in: services), ["KIE-UFC"])
    }

    func test_wordsOnlyInDescriptions() throws {
        XCTAssertEqual(try skus("organic coffee", in: try services()), ["BEAN-ORG"])
    }

    func test_fillerWords_areOptional_butRankWhenPresent() throws {
        XCTAssertEqual(try skus("filters for v60", in: try services()).first, "V60-FLT")
    }

    func test_pourover_pourOver_andPourHyphenOver_findTheSame() throws {
        let services = try services()
        let expected: Set = ["PO-KETTLE", "PO-STAND"]
        for query in ["pourover", "pour over", "pour-over", "Pour-Over"] {
            XCTAssertEqual(Set(try skus(query, in: services)), expected, query)
        }
    }

    func test_ranking_theExactNameFirst_andAGrinderBeforeItsParts() throws {
        let services = try services()
        XCTAssertEqual(try skus("manual coffee grinder", in: services).first, "GRN-MAN")
        XCTAssertEqual(Array(try skus("manual coffee grinder", in: services).prefix(2)), ["GRN-MAN", "GRN-MAN2"])
        let grinders = try skus("grinder", in: services)
        XCTAssertEqual(grinders.count, 7)
    }

    func test_paging_reachesEveryMatchOnce_withTheTotalOnEveryPage() throws {
        let rows = (0..<195).map { newRow(String(format: "G-%03d", $0), line: $0 + 2, name: "Grinder Model \($0)", category: "grinders") }
        let services = try services(rows)
        var request = ProductSearchRequest(query: "grinder", limit: 20)
        var seen: [String] = []
        var pages = 0
        repeat {
            let page = try page(request, in: services)
            XCTAssertEqual(page.total, 195)
            XCTAssertLessThanOrEqual(page.items.count, 20)
            seen += page.items.map(\.sku)
            request.cursor = page.nextCursor
            pages += 1
        } while request.cursor != nil && pages < 20
        XCTAssertEqual(pages, 10)
        XCTAssertEqual(seen, rows.map(\.sku), "every one, once, in order")
    }

    func test_aBadCursor_isInvalidCursor() throws {
        for (name, service) in try services() {
            XCTAssertThrowsError(try service.searchProducts(ProductSearchRequest(query: "grinder", cursor: "nonsense"), interruption: nil), name) {
                guard case ShopError.invalidCursor = $0 else { return XCTFail("\($0)") }
            }
            let listCursor = PageCursor.catalog(afterSeq: 3)
            XCTAssertThrowsError(try service.searchProducts(ProductSearchRequest(query: "grinder", cursor: listCursor), interruption: nil), name)
        }
    }

    func test_aPrefix_findsEveryWordBeginningWithIt_noCap() throws {
        var rows = (0..<70).map { newRow(String(format: "PRO-%02d", $0), line: $0 + 2, name: String(format: "Pro%02dx Mouse", $0), category: "mice") }
        rows.append(newRow("WHEY", line: 80, name: "Whey Protein 1kg", category: "nutrition"))
        rows.append(newRow("BAR", line: 81, name: "Protein Bar", category: "nutrition"))
        let services = try services(rows)
        let page = try page(ProductSearchRequest(query: "pro", limit: 200), in: services)
        XCTAssertEqual(page.total, 72)
        XCTAssertTrue(Set(page.items.map(\.sku)).isSuperset(of: ["WHEY", "BAR"]))
        XCTAssertEqual(Set(try skus("protein", in: services)), ["WHEY", "BAR"])
    }

    func test_wordListBug_replaceLeavesOnlyLiveWords_andPrefixStillFindsProtein() throws {
        var rows = (0..<64).map { newRow(String(format: "M-%02d", $0), line: $0 + 2, name: String(format: "Proa%02d Mouse", $0), category: "mice") }
        rows.append(newRow("WHEY", line: 70, name: "Whey Protein 1kg", category: "nutrition"))
        let services = try services(rows)
        for (name, service) in services {
            let (outcome, _) = try service.importRows([newRow("WHEY", line: 2, name: "Whey Protein 1kg", category: "nutrition")], replace: true)
            XCTAssertTrue(outcome.committed, name)
        }
        XCTAssertEqual(try skus("pro", in: services), ["WHEY"])
        let fresh = try self.services([newRow("WHEY", line: 2, name: "Whey Protein 1kg", category: "nutrition")])
        XCTAssertEqual(try page(ProductSearchRequest(query: "proa"), in: services), try page(ProductSearchRequest(query: "proa"), in: fresh),
                       "the same live catalog searches the same whatever its history")
        XCTAssertEqual(try skus("proa00", in: services), [], "an archived product's words are gone, typos included")
    }

    // MARK: - Filters, facets, sorts, highlights

    func test_filtersAndFacets_countEveryMatch_notOnlyThePage() throws {
        let services = try services()
        var request = ProductSearchRequest(query: "grinder", limit: 2, facets: [.brand, .category])
        let page = try page(request, in: services)
        XCTAssertEqual(page.total, 7)
        XCTAssertEqual(page.facets?.brand, [FacetValueCount(value: "Baratza", count: 5), FacetValueCount(value: "Hario", count: 1),
                                            FacetValueCount(value: "Timemore", count: 1)])
        XCTAssertEqual(page.facets?.category?.first, FacetValueCount(value: "grinders", count: 4))
        request.filters = ProductSearchFilters(categories: ["grinders"], brands: ["Baratza"])
        XCTAssertEqual(Set(try self.page(request, in: services).items.map(\.sku)), ["GRN-ELEC", "BRZ-ENC-001"])
        request.filters = ProductSearchFilters(priceMinCents: 5000, priceMaxCents: 15000)
        request.limit = 20
        XCTAssertEqual(Set(try self.page(request, in: services).items.map(\.sku)), ["GRN-ELEC", "GRN-MAN2"])
        request = ProductSearchRequest(query: "machine", filters: ProductSearchFilters(inStock: false))
        XCTAssertEqual(try self.page(request, in: services).items.map(\.sku), ["ESP-GAG"])
        request = ProductSearchRequest(query: "", filters: ProductSearchFilters(categories: ["apparel"], priceMinCents: 2100))
        let browse = try self.page(request, in: services)
        XCTAssertEqual(browse.items.map(\.sku), ["TEE-S"], "one variant in range is enough")
        XCTAssertEqual(browse.items.first?.variants.count, 2)
    }

    func test_sorts_orderByTheirField_thenByRelevance() throws {
        let services = try services()
        let ascending = try page(ProductSearchRequest(query: "grinder", sort: .priceAscending), in: services).items.map(\.priceMinCents)
        XCTAssertEqual(ascending, ascending.sorted())
        let descending = try page(ProductSearchRequest(query: "grinder", sort: .priceDescending), in: services).items.map(\.priceMaxCents)
        XCTAssertEqual(descending, descending.sorted(by: >))
        XCTAssertEqual(try page(ProductSearchRequest(query: "", sort: .newest, limit: 1), in: services).items.map(\.sku), ["TEE-S"])
        let names = try page(ProductSearchRequest(query: "grinder", sort: .name), in: services).items.map { $0.name.lowercased() }
        XCTAssertEqual(names, names.sorted())
    }

    func test_highlights_markTheMatchedWords_inUTF16() throws {
        let services = try services()
        let beans = try XCTUnwrap(try page(ProductSearchRequest(query: "organic coffee", highlights: true), in: services).items.first)
        XCTAssertEqual(beans.highlights, CatalogItemHighlights(name: [], description: [TextRange(start: 0, end: 7), TextRange(start: 8, end: 14)]))
        let grinder = try XCTUnwrap(try page(ProductSearchRequest(query: "electric grinder", highlights: true), in: services).items.first)
        XCTAssertEqual(grinder.sku, "GRN-ELEC")
        XCTAssertEqual(grinder.highlights?.name, [TextRange(start: 0, end: 8), TextRange(start: 16, end: 23)])
        XCTAssertNil(try page(ProductSearchRequest(query: "grinder"), in: services).items.first?.highlights)
    }

    func test_changes_keepTheIndexRight_archiveStatusRenameAndNewVariants() throws {
        let services = try services()
        for (_, service) in services {
            _ = try service.archiveProductsAndWait(["GRN-MAN"]).get()
            _ = try service.importRows([CatalogRow(line: 2, sku: "KNF-PAR", name: "Peeling Knife"),
                                        CatalogRow(line: 3, sku: "V60-DRP", status: .draft),
                                        CatalogRow(line: 4, sku: "TEE-L", priceCents: 2400, handle: "logo-tee", optionValues: ["L"])])
        }
        XCTAssertFalse(try skus("grinder", in: services).contains("GRN-MAN"))
        XCTAssertEqual(try skus("paring", in: services), [])
        XCTAssertEqual(try skus("peeling", in: services), ["KNF-PAR"])
        XCTAssertFalse(try skus("dripper", in: services).contains("V60-DRP"))
        XCTAssertEqual(try skus("TEE-L", in: services), ["TEE-S"])
    }
}
