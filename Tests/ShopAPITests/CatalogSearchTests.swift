import XCTest
@testable import ShopAPI

/// `catalog.search`, with FTS5 and with the `LIKE` fallback (SQLite), and on PostgreSQL.
final class CatalogSearchTests: StoreContractTestCase {
    private static let hostileQueries = [
        "\"", "*", "%", "_", "\\", "'", "\"\"\"", "espresso\"", "\"espresso", "esp*", "100%",
        "NEAR(a b)", "AND", "OR NOT", "name:espresso", "-espresso", "^espresso",
        "'; DROP TABLE products; --", "(", ")", "{}", "\0", "   ",
    ]

    func test_searchCatalog_isCaseInsensitive_andMatchesWordPrefixes() throws {
        try forEachStore {
            let lower = try service.searchCatalog(query: "espresso", limit: 200, interruption: nil).items
            XCTAssertFalse(lower.isEmpty)
            XCTAssertEqual(Set(try service.searchCatalog(query: "ESPRESSO", limit: 200, interruption: nil).items.map(\.sku)), Set(lower.map(\.sku)))
            XCTAssertEqual(Set(try service.searchCatalog(query: "eSpReS", limit: 200, interruption: nil).items.map(\.sku)), Set(lower.map(\.sku)))
            XCTAssertTrue(lower.allSatisfy { "\($0.name) \($0.description)".lowercased().contains("espresso") })
        }
    }

    func test_searchCatalog_everyWordMustMatch_acrossNameDescriptionAndCategory() throws {
        try forEachStore {
            let items = try service.searchCatalog(query: "premium kitchen", limit: 200, interruption: nil).items
            XCTAssertFalse(items.isEmpty)
            XCTAssertTrue(items.allSatisfy { $0.category == "kitchen" && $0.name.hasPrefix("Premium") })
        }
    }

    func test_searchCatalog_limit_isHonouredAndClamped() throws {
        try forEachStore {
            XCTAssertEqual(try service.searchCatalog(query: "a", limit: 3, interruption: nil).items.count, 3)
            XCTAssertLessThanOrEqual(try service.searchCatalog(query: "a", limit: 100_000, interruption: nil).items.count, ShopLimits.maxSearchResults)
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
        try forEachStore { try check(service) }  // SQLite full text; PostgreSQL's word-start match
        try check(try likeOnlyService())
    }

    func test_searchCatalog_queryWithoutLettersOrDigits_findsNothing() throws {
        try forEachStore {
            for query in ["", "%", "*", "\"", " -_- "] {
                XCTAssertEqual(try service.searchCatalog(query: query, limit: 10, interruption: nil).items, [], query)
            }
        }
    }

    func test_searchCatalog_likeFallback_isCaseInsensitiveAndFindsTheSameWords() throws {
        let fullText = try ShopService.open(path: ":memory:")
        let like = try likeOnlyService()
        for query in ["ESPRESSO", "garden gloves", "Kite"] {
            let expected = Set(try fullText.searchCatalog(query: query, limit: 200, interruption: nil).items.map(\.sku))
            XCTAssertFalse(expected.isEmpty, query)
            XCTAssertEqual(Set(try like.searchCatalog(query: query, limit: 200, interruption: nil).items.map(\.sku)), expected, query)
        }
    }

    func test_searchTerms_splitOnEverythingButLettersAndDigits() {
        XCTAssertEqual(SearchTerms.words(in: "  Pour-Over \"kettle\"* 100% café "), ["pour", "over", "kettle", "100", "café"])
        XCTAssertEqual(SearchTerms.words(in: String(repeating: "a ", count: 100)).count, SearchTerms.maxTerms)
    }

    func test_fullTextQuery_quotesEveryTerm_andLikePatternEscapesWildcards() {
        XCTAssertEqual(SQLiteSearchIndex.fullTextQuery(terms: ["a\"b", "c"]), "\"a\"\"b\"* \"c\"*")
        XCTAssertEqual(SQLiteSearchIndex.likePattern(term: "5%_\\"), "%5\\%\\_\\\\%")
    }

    private func likeOnlyService() throws -> ShopService {
        let store = try SQLiteShopStore.open(path: ":memory:", allowFullTextSearch: false)
        XCTAssertEqual(store.searchMode, .like)
        return ShopService(store: store)
    }
}
