import XCTest
@testable import ShopAPI

/// `SearchQuery` and `SearchQueryPlan`: what a query's words are, which are required, prefixes,
/// joins, splits, corrections, and dropping words.
final class SearchQueryTests: XCTestCase {
    func test_words_areAnalyzedLikeDocuments_repeatsOnce_atMostSixteen() {
        XCTAssertEqual(SearchQuery("De'Longhi 500 mL Pour-Over").words.map(\.text), ["delonghi", "500ml", "pour", "over"])
        XCTAssertEqual(SearchQuery("mug mug MUG").words.map(\.text), ["mug"])
        let many = (0..<30).map { "w\($0)x" }.joined(separator: " ")
        XCTAssertEqual(SearchQuery(many).words.count, SearchQuery.maxWords)
        XCTAssertTrue(SearchQuery("").words.isEmpty)
        XCTAssertTrue(SearchQuery("\"*%()").words.isEmpty)
    }

    func test_fillerWords_areOptional_unlessEveryWordIsFiller() {
        let query = SearchQuery("filters for v60")
        XCTAssertEqual(query.words.map(\.isFiller), [false, true, false])
        XCTAssertEqual(query.requiredWords, [0, 2])
        XCTAssertEqual(SearchQuery("the best").requiredWords, [0, 1])
        XCTAssertEqual(SearchQuery("filters for v60", analyzer: SearchAnalyzer(language: .other)).requiredWords, [0, 1, 2],
                       "no filler in another language")
    }

    func test_onlyTheLastWord_isAPrefix_andNotAfterASpace() {
        XCTAssertEqual(SearchQuery("espresso mach").words.map(\.isPrefix), [false, true])
        XCTAssertEqual(SearchQuery("espresso mach ").words.map(\.isPrefix), [false, false])
        XCTAssertEqual(SearchQuery("e").words.map(\.isPrefix), [false], "shorter than the minimum")
    }

    func test_joins_coverHyphenatedWords_andNeighbours() {
        XCTAssertEqual(SearchQuery("pour-over").joins, [SearchQuery.Join(word: "pourover", first: 0, count: 2)])
        XCTAssertEqual(SearchQuery("pour over").joins, [SearchQuery.Join(word: "pourover", first: 0, count: 2)])
        XCTAssertEqual(SearchQuery("BRZ-ENC-001").joins.first, SearchQuery.Join(word: "brzenc001", first: 0, count: 3))
        XCTAssertEqual(SearchQuery("case for iphone").joins, [], "no join across a filler")
    }

    func test_identifier_ignoresCaseAndPunctuation() {
        XCTAssertTrue(SearchQuery("brz enc 001").isIdentifier("BRZ-ENC-001"))
        XCTAssertFalse(SearchQuery("brz enc").isIdentifier("BRZ-ENC-001"))
        XCTAssertFalse(SearchQuery("").isIdentifier(""))
    }

    func test_droppingLastWord_dropsRequiredWordsFromTheEnd_neverTheFirst() throws {
        let query = SearchQuery("red coffee for mug")
        let once = try XCTUnwrap(query.droppingLastWord())
        XCTAssertEqual(once.droppedWords, ["mug"])
        XCTAssertEqual(once.requiredWords, [0, 1])
        let twice = try XCTUnwrap(once.droppingLastWord())
        XCTAssertEqual(twice.droppedWords, ["coffee", "mug"])
        XCTAssertNil(twice.droppingLastWord())
    }

    func test_plan_looksUpTyposOnlyForWordsNoProductHas() throws {
        let vocabulary = SearchMemoryVocabulary(frequencies: ["grinder": 5, "gender": 1, "coffee": 9, "toffee": 1])
        let plan = try SearchQueryPlan(query: SearchQuery("coffee grnder"), vocabulary: vocabulary)
        XCTAssertEqual(plan.typoCandidates[0], [], "coffee exists: not read as toffee")
        XCTAssertEqual(plan.typoCandidates[1].map(\.word), ["gender", "grinder"])
        XCTAssertEqual(plan.corrections, [SearchCorrection(word: "grnder", readAs: "grinder")], "the most frequent of equal typos")
        XCTAssertEqual(plan.readAs, "coffee grinder")
        XCTAssertGreaterThan(plan.typoLookupVisits, 0)
        let prefix = try SearchQueryPlan(query: SearchQuery("coffee grind"), vocabulary: vocabulary)
        XCTAssertEqual(prefix.typoCandidates[1], [], "a prefix of a word is not a typo")
    }

    func test_plan_splitsAWordNoProductHas_intoTwoThatExist() throws {
        let vocabulary = SearchMemoryVocabulary(frequencies: ["power": 5, "bank": 3, "pow": 1, "erbank": 1])
        let plan = try SearchQueryPlan(query: SearchQuery("powerbank"), vocabulary: vocabulary)
        XCTAssertEqual(plan.splits[0], SearchQueryPlan.Split(first: "power", second: "bank"))
        XCTAssertNil(try SearchQueryPlan(query: SearchQuery("power"), vocabulary: vocabulary).splits[0])
    }

    func test_plan_withoutVocabulary_stillMatchesWordsStemsPrefixAndJoins() {
        let plan = SearchQueryPlan(query: SearchQuery("pour over machine"))
        let tokens = SearchAnalyzer().tokens(in: "Pour-Over Machines Machinery Kettle", field: .name)
        let matches = tokens.map { plan.matches(of: $0).map(\.kind) }
        XCTAssertEqual(matches, [[.exact], [.exact], [.joined, .joined], [.stem], [.prefix], []])
        XCTAssertEqual(plan.matches(of: tokens[2]).map(\.word), [0, 1], "the joined word stands for both words")
    }

    func test_lookup_listsWhatAStoreLooksUpForAWord() throws {
        let vocabulary = SearchMemoryVocabulary(frequencies: ["grinder": 5, "pourover": 2, "power": 4, "bank": 3])
        let plan = try SearchQueryPlan(query: SearchQuery("pour over grnder powerbank"), vocabulary: vocabulary)
        XCTAssertEqual(plan.lookup(forWord: 0), .init(words: ["pour", "pourover"], stemKey: "pour", prefix: nil, split: nil))
        XCTAssertEqual(plan.lookup(forWord: 2).words, ["grnder", "grinder"], "joins no product has are left out")
        XCTAssertEqual(plan.lookup(forWord: 3), .init(words: ["powerbank"], stemKey: "powerbank", prefix: "powerbank",
                                                      split: .init(first: "power", second: "bank"), prefixWords: []))
    }

    /// A prefix with at most `maxPrefixWords` words is spelt out as them (a store looks up named
    /// words, not a prefix its index may lack); with more, the prefix stays a prefix.
    func test_lookup_spellsOutAPrefixOfFewWords_keepsAPrefixOfMany() throws {
        var frequencies = ["classic": 9, "classics": 2, "clay": 1]
        for number in 0..<SearchQueryPlan.maxPrefixWords { frequencies["pro\(number)x"] = 1 }
        let vocabulary = SearchMemoryVocabulary(frequencies: frequencies)
        let few = try SearchQueryPlan(query: SearchQuery("steel classic"), vocabulary: vocabulary)
        XCTAssertEqual(few.lookup(forWord: 1).prefixWords, ["classic", "classics"])
        XCTAssertEqual(few.lookup(forWord: 1).prefix, "classic")
        XCTAssertNil(few.lookup(forWord: 0).prefixWords, "only the last word is a prefix")
        let exactlyAtTheLimit = try SearchQueryPlan(query: SearchQuery("pro"), vocabulary: vocabulary)
        XCTAssertEqual(exactlyAtTheLimit.lookup(forWord: 0).prefixWords?.count, SearchQueryPlan.maxPrefixWords)
        frequencies["pro"] = 1
        let many = try SearchQueryPlan(query: SearchQuery("pro"), vocabulary: SearchMemoryVocabulary(frequencies: frequencies))
        XCTAssertNil(many.lookup(forWord: 0).prefixWords)
        XCTAssertEqual(many.lookup(forWord: 0).prefix, "pro")
    }
}
