import XCTest
@testable import ShopAPI

/// `catalog.search` on both stores (SQLite's FTS5 index and its scan fallback; PostgreSQL's GIN
/// index): which words match, and the order results come in.
final class CatalogSearchTests: StoreContractTestCase {
    private static let hostileQueries = [
        "\"", "*", "%", "_", "\\", "'", "\"\"\"", "espresso\"", "\"espresso", "esp*", "100%",
        "NEAR(a b)", "AND", "OR NOT", "name:espresso", "-espresso", "^espresso",
        "'; DROP TABLE products; --", "(", ")", "{}", "\0", "   ", "a & b | !c", "x:*", "''",
    ]

    func test_searchCatalog_isCaseInsensitive_andMatchesWordPrefixes() throws {
        try forEachStore {
            let lower = try service.searchCatalog(query: "espresso", limit: 200, interruption: nil).items
            XCTAssertFalse(lower.isEmpty)
            XCTAssertEqual(try service.searchCatalog(query: "ESPRESSO", limit: 200, interruption: nil).items, lower)
            XCTAssertEqual(try service.searchCatalog(query: "eSpReS", limit: 200, interruption: nil).items, lower)
            XCTAssertTrue(lower.allSatisfy { $0.name.lowercased().contains("espresso") })
        }
    }

    func test_searchCatalog_everyWordMustMatch_acrossNameAndCategory() throws {
        try forEachStore {
            let items = try service.searchCatalog(query: "premium kitchen", limit: 200, interruption: nil).items
            XCTAssertFalse(items.isEmpty)
            XCTAssertTrue(items.allSatisfy { $0.category == "kitchen" && $0.name.hasPrefix("Premium") })
        }
    }

    func test_searchCatalog_descriptionWordsAreNotSearched() throws {
        try forEachStore {
            // "baristas" is in the descriptions of coffee products only.
            XCTAssertTrue(try service.allProducts().contains { $0.description.contains("baristas") })
            XCTAssertEqual(try service.searchCatalog(query: "baristas", limit: 200, interruption: nil).items, [])
        }
    }

    func test_searchCatalog_resultsComeInCatalogOrder() throws {
        try forEachStore {
            // The demo catalog was added in SKU order.
            for query in ["classic", "coffee", "premium", "set"] {
                let skus = try service.searchCatalog(query: query, limit: 200, interruption: nil).items.map(\.sku)
                XCTAssertFalse(skus.isEmpty, query)
                XCTAssertEqual(skus, skus.sorted(), query)
            }
        }
    }

    func test_searchCatalog_wordsOfOneOrTwoCharactersMatchWholeWordsOnly() throws {
        try forEachStore {
            XCTAssertEqual(try service.searchCatalog(query: "pr", limit: 200, interruption: nil).items, [], "no word is 'pr'")
            XCTAssertEqual(try service.searchCatalog(query: "z", limit: 200, interruption: nil).items, [], "no word is 'z'")
            XCTAssertFalse(try service.searchCatalog(query: "pre", limit: 200, interruption: nil).items.isEmpty, "press, premium")
        }
    }

    func test_searchCatalog_limit_isHonouredAndClamped() throws {
        try forEachStore {
            XCTAssertEqual(try service.searchCatalog(query: "classic", limit: 3, interruption: nil).items.count, 3)
            XCTAssertLessThanOrEqual(try service.searchCatalog(query: "classic", limit: 100_000, interruption: nil).items.count, ShopLimits.maxSearchResults)
        }
    }

    func test_searchCatalog_hostileQueries_neverFailAndNeverMatchEverything() throws {
        func check(_ service: ShopService) throws {
            for query in Self.hostileQueries {
                let items = try service.searchCatalog(query: query, limit: 200, interruption: nil).items
                XCTAssertLessThan(items.count, 40, "query \(query.debugDescription)")
            }
            XCTAssertEqual(try service.allProducts().count, 240, "nothing was dropped")
        }
        try forEachStore { try check(service) }
        try check(try scanOnlyService())
    }

    func test_searchCatalog_queryWithoutLettersOrDigits_findsNothing() throws {
        try forEachStore {
            for query in ["", "%", "*", "\"", " -_- "] {
                XCTAssertEqual(try service.searchCatalog(query: query, limit: 10, interruption: nil).items, [], query)
            }
        }
    }

    func test_searchCatalog_withoutFullTextSearch_givesTheSameResultsInTheSameOrder() throws {
        let fullText = try ShopService.open(path: ":memory:")
        let scan = try scanOnlyService()
        for query in ["ESPRESSO", "garden gloves", "Kite", "classic", "pre", "toys deluxe", "a", "x"] {
            let expected = try fullText.searchCatalog(query: query, limit: 200, interruption: nil).items
            XCTAssertEqual(try scan.searchCatalog(query: query, limit: 200, interruption: nil).items, expected, query)
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
        XCTAssertEqual(SQLiteSearchIndex.fullTextQuery(wordGroups: [["a\"b"], ["c", "d"]]), "\"a\"\"b\" AND (\"c\" OR \"d\")")
        XCTAssertEqual(PostgreSQLWords.tsquery(wordGroups: [["a'b"], ["c", "d\\"]]), "'a''b' & ('c' | 'd\\\\')")
        XCTAssertEqual(PostgreSQLWords.tsvector(["x", "y"]), "'x' 'y'")
    }

    private func scanOnlyService() throws -> ShopService {
        let store = try SQLiteShopStore.open(path: ":memory:", allowFullTextSearch: false)
        XCTAssertEqual(store.searchMode, .scan)
        return ShopService(store: store)
    }
}
