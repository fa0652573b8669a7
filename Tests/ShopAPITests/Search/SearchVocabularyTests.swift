import XCTest
@testable import ShopAPI

/// `SearchMemoryVocabulary` (the contract of `SearchVocabulary`) and `SearchDocumentMatcher`'s facts.
final class SearchVocabularyTests: XCTestCase {
    func test_memoryVocabulary_enumeratesItsRange_inScalarOrder_andCountsDocuments() throws {
        let vocabulary = SearchMemoryVocabulary(documents: [
            SearchDocument(name: "Grinder grinder"), SearchDocument(name: "Grind Café"), SearchDocument(name: "Zest Grinder"),
        ])
        var all: [String] = []
        try vocabulary.enumerateWords(from: "", to: nil) { all.append($0); return true }
        XCTAssertEqual(all, ["cafe", "grind", "grinder", "zest"])
        var range: [String] = []
        try vocabulary.enumerateWords(from: "grind", to: SearchWordOrder.upperBound(ofPrefix: "grind")) { range.append($0); return true }
        XCTAssertEqual(range, ["grind", "grinder"])
        var first: [String] = []
        try vocabulary.enumerateWords(from: "b", to: nil) { first.append($0); return false }
        XCTAssertEqual(first, ["cafe"], "stops when the body says so")
        XCTAssertEqual(try vocabulary.documentFrequency(of: "grinder"), 2, "once per document")
        XCTAssertEqual(try vocabulary.documentFrequency(of: "kettle"), 0)
        XCTAssertTrue(SearchWordOrder.precedes("z", "é"), "UTF-8 byte order, as the stores' binary collation")
    }

    func test_wordOrder_isUTF8ByteOrder_forSmallLargeEqualAndPrefixStrings() {
        // Small strings (up to 15 bytes) are stored inline and large ones on the heap; bridged-free
        // substrings made into strings are native too: every pair must compare as their bytes do.
        let words = ["", "a", "ab", "abc", "b", "z", "é", "ée", "e\u{301}", "日本", "grinder", "grinders",
                     "averyveryverylongword", "averyveryverylongwordindeed", "averyveryverylongwore", "0", "09", "1.5l", "^name"]
        for a in words {
            for b in words {
                XCTAssertEqual(SearchWordOrder.precedes(a, b), Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8)), "\(a) < \(b)")
            }
        }
    }

    func test_facts_recordFieldsPositionsKinds_andCapHitsPerWordAndField() {
        let plan = SearchQueryPlan(query: SearchQuery("coffee grind"))
        let description = Array(repeating: "coffee", count: 10).joined(separator: " ")
        let facts = SearchDocumentMatcher.facts(
            of: SearchDocument(name: "Coffee Grinder", brand: "Baratza", description: description, sku: "BRZ-1"),
            catalogPosition: 7, plan: plan)
        XCTAssertEqual(facts.catalogPosition, 7)
        XCTAssertEqual(facts.fieldLengths, [2, 1, 0, 10, 2, 0], "BRZ-1: brz, 1 and brz1 over two positions")
        XCTAssertEqual(facts.termFrequencies[0][Int(SearchField.description.rawValue)], 10)
        XCTAssertEqual(facts.hits.filter { $0.field == .description }.count, SearchMatchFacts.maxHitsPerWordAndField)
        XCTAssertEqual(facts.hits.first, SearchMatchFacts.Hit(word: 0, field: .name, position: 0, endPosition: 0, kind: .exact, typos: 0))
        XCTAssertEqual(facts.hits.first { $0.word == 1 }?.kind, .prefix)
        XCTAssertEqual(facts.matchedWords, [0, 1])
        XCTAssertFalse(facts.nameIsQuery)
        XCTAssertFalse(facts.isIdentifierMatch)
    }
}
