import XCTest
@testable import ShopAPI

/// `SearchHighlighter`: the ranges that matched, in UTF-16 offsets of the original text.
final class SearchHighlighterTests: XCTestCase {
    private func highlighted(_ text: String, _ query: String, field: SearchField = .name) throws -> [String] {
        let vocabulary = SearchMemoryVocabulary(documents: [SearchDocument(name: text)])
        let plan = try SearchQueryPlan(query: SearchQuery(query), vocabulary: vocabulary)
        let utf16 = Array(text.utf16)
        return SearchHighlighter.ranges(in: text, field: field, plan: plan).map { String(decoding: utf16[$0], as: UTF16.self) }
    }

    func test_wordsPrefixesStemsAndJoinedWords_areHighlightedWhole() throws {
        XCTAssertEqual(try highlighted("Gaggia Classic Espresso Machine", "espresso mach"), ["Espresso", "Machine"])
        XCTAssertEqual(try highlighted("Hario V60 Pour-Over Dripper", "pourover"), ["Pour-Over"])
        XCTAssertEqual(try highlighted("Hario V60 Pour-Over Dripper", "pour over drippers"), ["Pour-Over", "Dripper"])
        XCTAssertEqual(SearchHighlighter.ranges(in: "Pour-Over", plan: SearchQueryPlan(query: SearchQuery("pour over"))), [0..<9],
                       "the pieces and the joined word of one word: one range")
        XCTAssertEqual(try highlighted("Kiehl's Ultra Facial Cream", "kiehls cream"), ["Kiehl's", "Cream"])
        XCTAssertEqual(try highlighted("Mineral Water 500 mL", "500ml"), ["500 mL"])
        XCTAssertEqual(try highlighted("Anker Power Bank", "powerbank"), ["Power", "Bank"])
    }

    func test_offsets_countUTF16CodeUnits() throws {
        let vocabulary = SearchMemoryVocabulary(documents: [SearchDocument(name: "🎉 Café Crème")])
        let plan = try SearchQueryPlan(query: SearchQuery("creme"), vocabulary: vocabulary)
        XCTAssertEqual(SearchHighlighter.ranges(in: "🎉 Café Crème", plan: plan), [8..<13])
    }

    func test_nothingMatched_noRanges() throws {
        XCTAssertEqual(try highlighted("Gaggia Classic", "kettle"), [])
        XCTAssertEqual(try highlighted("", "kettle"), [])
    }
}
