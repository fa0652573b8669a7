import XCTest
import Foundation
@testable import ShopAPI

/// The owner's synonyms at query time: groups both ways, rules one way, words as search reads them
/// (`T-Shirt` is `tshirt`), ranked after exact words, and no typo correction where a synonym finds.
final class SearchSynonymsTests: XCTestCase {
    private let products = [
        SearchDocument(name: "Organic Cotton T-Shirt", category: "apparel", sku: "TS-1"),
        SearchDocument(name: "Graphic Tee", category: "apparel", sku: "TS-2"),
        SearchDocument(name: "Ultrabook Notebook 14", category: "computers", sku: "NB-1"),
        SearchDocument(name: "Gaming Laptop 17", category: "computers", sku: "LP-1"),
        SearchDocument(name: "Spiral Notebook A5", category: "stationery", sku: "PAPER-1"),
    ]

    private let synonyms = SearchSynonyms(groups: [["tee", "T-Shirt"]],
                                          rules: [SearchSynonyms.Rule(input: "laptop", synonyms: ["notebook"])])

    private func outcome(_ text: String, synonyms: SearchSynonyms? = nil) throws -> SearchOutcome {
        let vocabulary = SearchMemoryVocabulary(documents: products)
        let plan = try SearchQueryPlan(query: SearchQuery(text + " "), vocabulary: vocabulary, synonyms: SearchSynonymIndex(synonyms ?? self.synonyms))
        return SearchOutcome.search(plan) { plan in
            products.enumerated().map { SearchDocumentMatcher.facts(of: $1, catalogPosition: $0, plan: plan) }
        }
    }

    private func skus(_ text: String, synonyms: SearchSynonyms? = nil) throws -> [String] {
        try outcome(text, synonyms: synonyms).ranked.map { products[$0.facts.catalogPosition].sku }
    }

    func test_aGroup_findsEachOther_theExactWordFirst() throws {
        XCTAssertEqual(try skus("tee"), ["TS-2", "TS-1"])
        XCTAssertEqual(try skus("t-shirt"), ["TS-1", "TS-2"])
        XCTAssertEqual(try skus("tshirt"), ["TS-1", "TS-2"])
        XCTAssertEqual(try skus("t shirt"), ["TS-1", "TS-2"], "two words written together are the group's word")
        XCTAssertEqual(try skus("tee", synonyms: SearchSynonyms.none), ["TS-2"])
    }

    func test_aRule_findsOneWayOnly() throws {
        XCTAssertEqual(try skus("laptop"), ["LP-1", "NB-1", "PAPER-1"])
        XCTAssertEqual(try skus("notebook"), ["NB-1", "PAPER-1"])
    }

    func test_aSynonymMatch_ranksAsAStem_afterExactWords() throws {
        let ranked = try outcome("laptop").ranked
        XCTAssertEqual(ranked[0].key.exactWords, 1)
        XCTAssertEqual(ranked[1].key.exactWords, 0)
        XCTAssertEqual(ranked[1].key.stemOrBetterWords, 1)
    }

    /// A word no product has but that the owner made a synonym of a word products have is taken
    /// as meant: it finds through the synonym and is not corrected to a look-alike.
    func test_aWordASynonymFinds_isNotCorrected() throws {
        let found = try outcome("notebok", synonyms: SearchSynonyms(groups: [["notebok", "ultrabook"]], rules: []))
        XCTAssertEqual(found.corrections, [], "notebok is the owner's word for ultrabook")
        XCTAssertEqual(found.ranked.map { products[$0.facts.catalogPosition].sku }, ["NB-1"])
        XCTAssertEqual(try outcome("notebok", synonyms: SearchSynonyms.none).corrections,
                       [SearchCorrection(word: "notebok", readAs: "notebook")])
    }

    func test_highlights_markWhatASynonymMatched() throws {
        let plan = try SearchQueryPlan(query: SearchQuery("tee "), vocabulary: SearchMemoryVocabulary(documents: products), synonyms: SearchSynonymIndex(synonyms))
        XCTAssertEqual(SearchHighlighter.ranges(in: "Organic Cotton T-Shirt", plan: plan), [15..<22])
    }

    func test_codable_keepsTheOwnersSpelling() throws {
        let decoded = try JSONDecoder().decode(SearchSynonyms.self, from: JSONEncoder().encode(synonyms))
        XCTAssertEqual(decoded, synonyms)
        XCTAssertEqual(decoded.groups, [["tee", "T-Shirt"]])
        XCTAssertEqual(SearchSynonymIndex(decoded).alternatives(of: "tee"), ["tshirt"])
        XCTAssertEqual(SearchSynonymIndex(decoded).alternatives(of: "notebook"), [], "a rule is one way")
    }
}
