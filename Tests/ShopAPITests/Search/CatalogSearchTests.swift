import XCTest
@testable import ShopAPI

/// `catalog.search` (`ShopService.searchProducts`) on every store (SQLite's FTS5 index and its
/// scan fallback; PostgreSQL): which words match, and the order results come in.
final class CatalogSearchTests: StoreContractTestCase {
    private static let hostileQueries = [
        "\"", "*", "%", "_", "\\", "'", "\"\"\"", "espresso\"", "\"espresso", "esp*", "100%",
        "NEAR(a b)", "AND", "OR NOT", "name:espresso", "-espresso", "^espresso",
        "'; DROP TABLE products; --", "(", ")", "{}", "\0", "a & b | !c", "x:*", "''",
    ]

    func test_searchCatalog_isCaseInsensitive_andMatchesWordPrefixes() throws {
        try forEachStore {
            let lower = try service.searchItems("espresso", limit: 200)
            XCTAssertFalse(lower.isEmpty)
            XCTAssertEqual(try service.searchItems("ESPRESSO", limit: 200), lower)
            XCTAssertEqual(Set(try service.searchItems("eSpReS", limit: 200).map(\.sku)), Set(lower.map(\.sku)))
            XCTAssertTrue(lower.allSatisfy { ($0.name + " " + $0.description).lowercased().contains("espresso") })
            XCTAssertTrue(lower.first?.name.lowercased().contains("espresso") == true, "a name match first")
        }
    }

    /// The products with every word (across name and category) come first; fewer than a page
    /// of them, so the last word is then left out and the products with the first follow.
    func test_searchCatalog_everyWordFirst_acrossNameAndCategory_thenTheFirstWords() throws {
        try forEachStore {
            let page = try service.searchProducts(ProductSearchRequest(query: "premium kitchen", limit: 200), interruption: nil)
            let both = page.items.prefix { $0.category == "kitchen" && $0.name.hasPrefix("Premium") }
            XCTAssertFalse(both.isEmpty)
            XCTAssertLessThan(both.count, ProductSearch.minimumMatches)
            XCTAssertEqual(page.droppedWords, ["kitchen"])
            XCTAssertGreaterThan(page.items.count, both.count)
            XCTAssertTrue(page.items.dropFirst(both.count).allSatisfy { $0.name.hasPrefix("Premium") && $0.category != "kitchen" })
        }
    }

    func test_searchCatalog_descriptionWordsAreSearched() throws {
        try forEachStore {
            // "baristas" is in the descriptions of coffee products only.
            let expected = try service.allProducts().filter { $0.description.contains("baristas") }.map(\.sku)
            XCTAssertFalse(expected.isEmpty)
            XCTAssertEqual(Set(try service.searchItems("baristas", limit: 200).map(\.sku)), Set(expected))
        }
    }

    func test_searchCatalog_emptyQueryBrowsesInCatalogOrder_withTheTotal() throws {
        try forEachStore {
            let page = try service.searchProducts(ProductSearchRequest(query: " ", limit: 200), interruption: nil)
            XCTAssertEqual(page.items.map(\.sku), Array(try service.allProducts().map(\.sku).prefix(200)))
            XCTAssertEqual(page.total, 240)
        }
    }

    func test_searchCatalog_aLastWordOfTwoCharactersIsAPrefix_oneCharacterIsAWholeWord() throws {
        try forEachStore {
            XCTAssertEqual(try service.searchItems("z", limit: 200), [], "no word is 'z'")
            let names = try service.searchItems("pr", limit: 200).map { $0.name.lowercased() }
            XCTAssertTrue(names.contains { $0.contains("press") } && names.contains { $0.contains("premium") }, "press, premium")
        }
    }

    func test_searchCatalog_limit_isHonouredAndClamped() throws {
        try forEachStore {
            XCTAssertEqual(try service.searchItems("classic", limit: 3).count, 3)
            XCTAssertLessThanOrEqual(try service.searchItems("classic", limit: 100_000).count, ShopLimits.maxSearchResults)
        }
    }

    func test_searchCatalog_hostileQueries_neverFailAndNeverMatchEverything() throws {
        func check(_ service: ShopService) throws {
            for query in Self.hostileQueries {
                let items = try service.searchItems(query, limit: 200)
                XCTAssertLessThan(items.count, 40, "query \(query.debugDescription)")
            }
            XCTAssertEqual(try service.allProducts().count, 240, "nothing was dropped")
        }
        try forEachStore { try check(service) }
        try check(try scanOnlyService())
    }

    func test_searchCatalog_queryWithoutLettersOrDigits_findsNothing() throws {
        try forEachStore {
            for query in ["%", "*", "\"", " -_- "] {
                XCTAssertEqual(try service.searchItems(query, limit: 10), [], query)
            }
        }
    }

    func test_searchCatalog_withoutFullTextSearch_givesTheSameResultsInTheSameOrder() throws {
        let fullText = try ShopService.open(path: ":memory:")
        let scan = try scanOnlyService()
        for query in ["ESPRESSO", "garden gloves", "Kite", "classic", "pre", "toys deluxe", "a", "x", "expresso", "gloves for garden", "baristas"] {
            let expected = try fullText.searchItems(query, limit: 200)
            XCTAssertEqual(try scan.searchItems(query, limit: 200), expected, query)
        }
    }

    func test_searchTerms_splitOnEverythingButLettersAndDigits_foldAccents_andDropRepeats() {
        XCTAssertEqual(SearchTerms.words(in: "  Pour-Over \"kettle\"* 100% Café CAFÉ "), ["pour", "over", "kettle", "100", "cafe"])
        XCTAssertEqual(SearchTerms.words(in: (1...100).map { "w\($0)" }.joined(separator: " ")).count, SearchTerms.maxTerms)
    }

    func test_searchText_foldsComposedAndDecomposedAccentsAlike_andCutsLongWords() {
        XCTAssertEqual(SearchText.words(in: "Crème brûlée, ÅNGSTRÖM straße"), ["creme", "brulee", "angstrom", "straße"])
        XCTAssertEqual(SearchText.words(in: "Cre\u{0300}me"), ["creme"], "a combining mark is dropped, not a separator")
        XCTAssertEqual(SearchText.words(in: "日本の茶 Ωmega 12-pack"), ["日本の茶", "ωmega", "12", "pack"])
        XCTAssertEqual(SearchText.words(in: String(repeating: "é", count: 100)), [String(repeating: "e", count: SearchText.maxWordLength)])
        XCTAssertEqual(SearchText.words(in: String(repeating: "x", count: 100)), [String(repeating: "x", count: SearchText.maxWordLength)])
        XCTAssertEqual(SearchText.productWords(name: "Cast Iron Cast", category: "kitchen"), ["cast", "iron", "kitchen"])
    }

    func test_searchQueries_quoteEveryWord() {
        let lookups = [SearchQueryPlan.WordLookup(words: ["a\"b"], stemKey: "a\"b", prefix: nil, split: nil),
                       SearchQueryPlan.WordLookup(words: ["c"], stemKey: "d", prefix: "c", split: .init(first: "e", second: "f"))]
        XCTAssertEqual(SQLiteSearchIndex.fullTextQuery(lookups: lookups), "(\"a\"\"b\") AND (\"c\" OR \"d\" OR \"c\" * OR (\"e\" AND \"f\"))")
        XCTAssertEqual(PostgreSQLWords.tsquery(wordGroups: [["a'b"], ["c", "d\\"]]), "'a''b' & ('c' | 'd\\\\')")
        XCTAssertEqual(PostgreSQLWords.tsvector(["x", "y"]), "'x' 'y'")
    }

    private func scanOnlyService() throws -> ShopService {
        let store = try SQLiteShopStore.open(path: ":memory:", allowFullTextSearch: false)
        XCTAssertEqual(store.searchMode, .scan)
        return ShopService(store: store)
    }
}
