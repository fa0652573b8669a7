import XCTest
@testable import ShopAPI

/// The owner's view of searches that found nothing: counts, folded queries, report order, and the
/// bounded memory's guarantee that a frequent query is never lost among many rare ones.
final class SearchStatsTests: XCTestCase {
    func test_countsSearches_andThoseWithoutResults_byFoldedQuery() {
        let stats = SearchStats()
        stats.record(query: "Grnder!", found: 0)
        stats.record(query: "  grnder ", found: 0)
        stats.record(query: "Café crème", found: 0)
        stats.record(query: "grinder", found: 12)
        stats.record(query: "  ", found: 0)
        let snapshot = stats.snapshot
        XCTAssertEqual(snapshot.searches, 4, "a query without words is not a search")
        XCTAssertEqual(snapshot.withoutResults, 3)
        XCTAssertEqual(snapshot.topWithoutResults, [
            SearchStats.ZeroResultQuery(query: "grnder", count: 2, overcount: 0),
            SearchStats.ZeroResultQuery(query: "cafe creme", count: 1, overcount: 0),
        ])
    }

    func test_reportsTheMostFrequentFirst_thenByQuery_atMostTen() {
        let stats = SearchStats()
        for (index, word) in ["delta", "alpha", "charlie", "bravo"].enumerated() {
            for _ in 0...index { stats.record(query: word, found: 0) }
        }
        for number in 0..<20 { stats.record(query: "rare\(number)", found: 0) }
        let top = stats.snapshot.topWithoutResults
        XCTAssertEqual(top.count, SearchStats.reported)
        XCTAssertEqual(top.prefix(5).map(\.query), ["bravo", "charlie", "alpha", "delta", "rare0"])
        XCTAssertEqual(top.prefix(4).map(\.count), [4, 3, 2, 1])
    }

    /// More distinct queries than it keeps: a query searched more often than
    /// withoutResults / capacity stays, with a count never below its true one.
    func test_boundedMemory_keepsTheFrequentQuery_amongManyRareOnes() {
        let stats = SearchStats()
        var hotSearches = 0
        for number in 0..<2_000 {
            stats.record(query: "rare \(number)", found: 0)
            if number % 10 == 0 {
                stats.record(query: "expresso", found: 0)
                hotSearches += 1
            }
        }
        let snapshot = stats.snapshot
        XCTAssertEqual(snapshot.withoutResults, 2_000 + hotSearches)
        let hot = snapshot.topWithoutResults.first
        XCTAssertEqual(hot?.query, "expresso")
        XCTAssertGreaterThanOrEqual(hot?.count ?? 0, hotSearches)
        XCTAssertLessThanOrEqual((hot?.count ?? 0) - (hot?.overcount ?? 0), hotSearches)
    }

    func test_aLongQuery_isCutAtAWordEnd() {
        let long = String(repeating: "espresso ", count: 30)
        XCTAssertEqual(SearchStats.key(of: long).utf8.count, 98)
        XCTAssertTrue(SearchStats.key(of: long).hasSuffix("espresso"))
    }
}
