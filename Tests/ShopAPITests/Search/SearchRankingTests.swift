import XCTest
@testable import ShopAPI

/// The ranking, rule by rule, and the everyday queries end to end over the search core
/// (`SearchCoreFixture`: analyzer, vocabulary, plan, facts, ranking).
final class SearchRankingTests: XCTestCase {
    private let fixture = SearchCoreFixture()

    // MARK: - The queries

    func test_typos_expressoMachine_findsEspressoMachines_andSaysWhatItWasReadAs() throws {
        let outcome = try fixture.search("expresso machine")
        let names = outcome.ranked.map { fixture.products[$0.facts.catalogPosition].name }
        XCTAssertEqual(Set(names.prefix(3)), ["Gaggia Classic Pro Espresso Machine", "Dedica Espresso Machine", "Espresso Machine Descaler"])
        XCTAssertEqual(outcome.corrections, [SearchCorrection(word: "expresso", readAs: "espresso")])
        XCTAssertEqual(outcome.readAs, "espresso machine")
        XCTAssertEqual(outcome.droppedWords, [])
    }

    func test_typos_grnder_findsTheGrinders() throws {
        let outcome = try fixture.search("grnder")
        let names = Set(outcome.ranked.map { fixture.products[$0.facts.catalogPosition].name })
        XCTAssertTrue(names.isSuperset(of: ["Manual Coffee Grinder", "Baratza Encore Conical Burr Coffee Grinder", "Grinder Cleaning Brush"]))
        XCTAssertEqual(outcome.readAs, "grinder")
        XCTAssertTrue(outcome.ranked.allSatisfy { $0.key.typos == 1 })
    }

    func test_plurals_espressoMachines_andKnives_findTheSingulars() throws {
        XCTAssertEqual(Set(try fixture.names("espresso machines").prefix(3)),
                       ["Gaggia Classic Pro Espresso Machine", "Dedica Espresso Machine", "Espresso Machine Descaler"])
        XCTAssertEqual(try fixture.search("espresso machines").corrections, [], "a plural is not a typo")
        XCTAssertEqual(Set(try fixture.names("knives")), ["Chef's Knife 8 inch", "Knife Block Set"])
    }

    func test_sku_BRZENC001_comesFirst_inAnyCase() throws {
        for query in ["BRZ-ENC-001", "brz-enc-001", "brzenc001", "baratza-encore"] {
            let outcome = try fixture.search(query)
            XCTAssertEqual(outcome.ranked.first.map { fixture.products[$0.facts.catalogPosition].sku }, "BRZ-ENC-001", query)
            XCTAssertEqual(outcome.ranked.first?.key.isIdentifierMatch, true, query)
        }
        XCTAssertEqual(try fixture.search("brz-enc-002").ranked.first?.key.isIdentifierMatch, false,
                       "no typo on a SKU: another SKU is not it")
    }

    func test_brandsWithoutTheApostrophe_delonghi_kiehls() throws {
        XCTAssertEqual(try fixture.names("delonghi"), ["Dedica Espresso Machine"])
        XCTAssertEqual(try fixture.names("De'Longhi espresso"), ["Dedica Espresso Machine"])
        XCTAssertEqual(try fixture.names("kiehls"), ["Ultra Facial Cream 50ml"])
        XCTAssertEqual(try fixture.names("kiehl's cream"), ["Ultra Facial Cream 50ml"])
        XCTAssertEqual(try fixture.names("kiehl"), ["Ultra Facial Cream 50ml"], "the split piece")
    }

    func test_compounds_pourover_pourOver_andPourHyphenOver_findTheSameProducts() throws {
        let expected: Set = ["V60 Pour-Over Dripper", "Pour-Over Coffee Maker"]
        for query in ["pourover", "pour over", "pour-over", "Pour-Over", "pour over "] {
            XCTAssertEqual(Set(try fixture.names(query)), expected, query)
        }
        XCTAssertEqual(try fixture.names("powerbank"), ["PowerCore Power Bank 10000mAh"], "a word no product has, split")
        XCTAssertEqual(try fixture.names("power bank").first, "PowerCore Power Bank 10000mAh")
    }

    func test_numbersWithUnits_500ml_and500Space_ml_findTheSameProducts() throws {
        let expected: Set = ["Mineral Water 500 mL", "Sparkling Water 500ml"]
        for query in ["500ml", "500 ml", "500 mL", "water 500ml"] {
            XCTAssertEqual(Set(try fixture.names(query)), expected, query)
        }
        XCTAssertEqual(try fixture.names("1.5l water"), ["Still Water 1.5 L"])
    }

    func test_fillerWords_filtersForV60_areOptional_butCountWhenPresent() throws {
        XCTAssertEqual(try fixture.names("filters for v60"), ["Paper Coffee Filters for V60"])
        let outcome = try fixture.search("filters for v60")
        XCTAssertEqual(outcome.ranked.first?.key.matchedWords, 2)
        XCTAssertEqual(outcome.ranked.first?.key.matchedFillers, 1, "`for` counts when the product has it")
        XCTAssertEqual(outcome.droppedWords, [])
        XCTAssertEqual(try fixture.names("the coffee maker"), ["Pour-Over Coffee Maker"], "`the` is not required")
    }

    func test_descriptions_areSearched_atTheLowestWeight() throws {
        XCTAssertEqual(try fixture.names("organic coffee"), ["Colombian Whole Bean Coffee"])
        let grinders = try fixture.search("grinder").ranked
        let brush = grinders.first { $0.facts.catalogPosition == 0 }!
        XCTAssertEqual(brush.key.attribute, 0, "its best field is its name")
    }

    func test_exactName_manualCoffeeGrinder_comesFirst() throws {
        XCTAssertEqual(try fixture.names("manual coffee grinder").first, "Manual Coffee Grinder")
        XCTAssertEqual(try fixture.names("Baratza Encore Conical Burr Coffee Grinder").first, "Baratza Encore Conical Burr Coffee Grinder")
    }

    func test_lastWordIsAPrefix_asTyped() throws {
        XCTAssertEqual(Set(try fixture.names("espresso mach")), ["Gaggia Classic Pro Espresso Machine", "Dedica Espresso Machine",
                                                                 "Espresso Machine Descaler"])
        XCTAssertEqual(try fixture.names("mach espresso"), [], "only the last word is a prefix")
        XCTAssertEqual(try fixture.names("prot"), ["Whey Protein Powder 1kg"])
    }

    func test_whenAllWordsFindNothing_wordsAreDroppedFromTheEnd_andSaid() throws {
        let outcome = try fixture.search("espresso machine unicorn")
        XCTAssertEqual(outcome.droppedWords, ["unicorn"])
        XCTAssertEqual(Set(outcome.ranked.map { $0.facts.catalogPosition }), [4, 5, 17])
        XCTAssertEqual(try fixture.search("zzzz").ranked.count, 0, "one word is never dropped")
        XCTAssertEqual(try fixture.search("zzzz qqqq").droppedWords, [], "nothing found: nothing said dropped")
    }

    func test_withAMinimumOfMatches_wordsAreDroppedUntilThereAreEnough_allWordsFirst() throws {
        let plan = try SearchQueryPlan(query: SearchQuery("espresso machine gaggia"), vocabulary: fixture.vocabulary)
        let outcome = SearchOutcome.search(plan, minimumMatches: 3) { plan in
            fixture.products.enumerated().map { SearchDocumentMatcher.facts(of: $1, catalogPosition: $0, plan: plan) }
        }
        XCTAssertEqual(outcome.droppedWords, ["gaggia"])
        XCTAssertEqual(outcome.ranked.map(\.facts.catalogPosition).first, 4, "the product with every word first")
        XCTAssertEqual(Set(outcome.ranked.map(\.facts.catalogPosition)), [4, 5, 17])
    }

    // MARK: - The rules, one at a time

    private func key(_ name: String, _ query: String, position: Int = 0, brand: String = "", description: String = "",
                     sku: String = "") throws -> SearchRankingKey? {
        let plan = try SearchQueryPlan(query: SearchQuery(query), vocabulary: fixture.vocabulary)
        let facts = SearchDocumentMatcher.facts(of: SearchDocument(name: name, brand: brand, description: description, sku: sku),
                                                catalogPosition: position, plan: plan)
        return SearchRanking.key(for: facts, plan: plan)
    }

    func test_rule1_anExactIdentifier_beatsEverything() throws {
        let bySku = try XCTUnwrap(key("Something Else", "BRZ-ENC-001", position: 9, sku: "BRZ-ENC-001"))
        let byName = try XCTUnwrap(key("BRZ ENC 001 Adapter", "BRZ-ENC-001", position: 0))
        XCTAssertLessThan(bySku, byName)
    }

    func test_rule2_moreWordsMatched_first_fillerWordsNotCounted() throws {
        let plan = try XCTUnwrap(SearchQueryPlan(query: SearchQuery("coffee grinder")).droppingLastWord())
        func keyAfterDrop(_ name: String, _ position: Int) throws -> SearchRankingKey {
            try XCTUnwrap(SearchRanking.key(for: SearchDocumentMatcher.facts(of: SearchDocument(name: name), catalogPosition: position,
                                                                             plan: plan), plan: plan))
        }
        XCTAssertLessThan(try keyAfterDrop("Coffee Grinder", 9), try keyAfterDrop("Coffee Scoop", 0))
        XCTAssertEqual(try keyAfterDrop("Coffee Scoop", 0).matchedWords, 1)
        let filler = try XCTUnwrap(key("iPhone Case", "case for iphone", position: 0, description: "For a phone, for you."))
        let plain = try XCTUnwrap(key("iPhone Case Slim", "case for iphone", position: 9))
        XCTAssertEqual(filler.matchedWords, plain.matchedWords, "filler words are not counted by rule 2")
        XCTAssertEqual(filler.proximity, plain.proximity)
        XCTAssertEqual(filler.matchedFillers, 1)
    }

    func test_rule6_fillerWords_breakTiesAfterTheField() throws {
        let withFor = try XCTUnwrap(key("Case iPhone for Travel", "case for iphone", position: 5))
        let without = try XCTUnwrap(key("Case iPhone Travel Kit", "case for iphone", position: 0))
        XCTAssertEqual(withFor.proximity, without.proximity)
        XCTAssertEqual(withFor.matchedFillers, 1)
        XCTAssertLessThan(withFor, without)
    }

    func test_rule3_fewerTypos_first() throws {
        // `coffe` is no word of the fixture's vocabulary, so it is read as `coffee` (1 typo); a
        // product that has `coffe` itself matches it with none.
        let typo = try XCTUnwrap(key("Coffee Grinder", "coffe grinder", position: 0))
        let exact = try XCTUnwrap(key("Coffe Grinder", "coffe grinder", position: 5))
        XCTAssertEqual(typo.typos, 1)
        XCTAssertEqual(exact.typos, 0)
        XCTAssertLessThan(exact, typo)
    }

    func test_rule4_wordsCloseTogetherAndInOrder_first() throws {
        let together = try XCTUnwrap(key("Coffee Grinder", "coffee grinder", position: 9))
        let reversed = try XCTUnwrap(key("Grinder Coffee", "coffee grinder", position: 1))
        let apart = try XCTUnwrap(key("Coffee Bean Storage Grinder", "coffee grinder", position: 0))
        let fields = try XCTUnwrap(key("Grinder", "coffee grinder", position: 0, description: "For coffee."))
        XCTAssertEqual([together, reversed, apart, fields].map(\.proximity), [1, 2, 3, 8])
        XCTAssertEqual([fields, apart, reversed, together].sorted().map(\.catalogPosition), [9, 1, 0, 0])
    }

    func test_rule5_betterField_first() throws {
        let name = try XCTUnwrap(key("Baratza Tool", "baratza", position: 9))
        let brand = try XCTUnwrap(key("Tool", "baratza", position: 1, brand: "Baratza"))
        let description = try XCTUnwrap(key("Tool", "baratza", position: 0, description: "Fits Baratza."))
        XCTAssertEqual([description, brand, name].sorted().map(\.catalogPosition), [9, 1, 0])
    }

    func test_rule7_exactWords_beforeStems_beforePrefixes() throws {
        let exact = try XCTUnwrap(key("Grind Gauge", "grind", position: 9))
        let prefix = try XCTUnwrap(key("Grinder Gauge", "grind", position: 0))
        XCTAssertLessThan(exact, prefix)
        let stem = try XCTUnwrap(key("Knives Gauge", "knife", position: 9))
        let exactKnife = try XCTUnwrap(key("Knife Gauge", "knife", position: 0))
        XCTAssertLessThan(exactKnife, stem)
        XCTAssertEqual(stem.exactWords, 0)
        XCTAssertEqual(stem.stemOrBetterWords, 1)
        let nameIsQuery = try XCTUnwrap(key("Coffee Grinder", "coffee grinder", position: 9))
        let longer = try XCTUnwrap(key("Coffee Grinder Pro", "coffee grinder", position: 0))
        XCTAssertLessThan(nameIsQuery, longer)
    }

    func test_rule9_tiesGoToCatalogOrder() throws {
        let first = try XCTUnwrap(key("Coffee Grinder", "coffee", position: 1))
        let second = try XCTUnwrap(key("Coffee Grinder", "coffee", position: 2))
        XCTAssertLessThan(first, second)
        XCTAssertFalse(second < first)
        XCTAssertEqual(try fixture.names("water"), ["Mineral Water 500 mL", "Sparkling Water 500ml", "Still Water 1.5 L"],
                       "equal names of equal length: catalog order")
    }

    func test_aProductWithoutARequiredWord_hasNoKey() throws {
        XCTAssertNil(try key("Coffee Grinder", "coffee kettle"))
        XCTAssertNil(try key("Kettle", "coffee"))
    }

    func test_relevance_prefersShorterNames_withinABucket() throws {
        let outcome = try fixture.search("burr")
        XCTAssertEqual(outcome.ranked.map(\.facts.catalogPosition).first, 1, "Burr Set for Baratza Grinders")
        XCTAssertGreaterThan(outcome.ranked[0].key.relevance, outcome.ranked[1].key.relevance)
        XCTAssertEqual(SearchRanking.naturalLog(1), 0, accuracy: 1e-12)
        XCTAssertEqual(SearchRanking.naturalLog(10), 2.302_585_092_994_046, accuracy: 1e-9)
    }
}
