import XCTest
@testable import ShopAPI

/// `SearchByteSet`, and the query plan's first bytes built on it: a token is only skipped when
/// its word begins with a byte no word it could match by begins with.
final class SearchByteSetTests: XCTestCase {
    func test_holdsExactlyTheBytesInserted_inEveryQuarter() {
        var set = SearchByteSet()
        let inserted: [UInt8] = [0, 1, 63, 64, 65, 127, 128, 191, 192, 200, 255]
        for byte in inserted { set.insert(byte) }
        for byte in UInt8.min...UInt8.max {
            XCTAssertEqual(set.contains(byte), inserted.contains(byte), "\(byte)")
        }
        var words = SearchByteSet()
        words.insertFirstByte(of: "étagère")
        words.insertFirstByte(of: "")
        XCTAssertTrue(words.containsFirstByte(of: "été"), "the first UTF-8 byte, shared by é-words")
        XCTAssertFalse(words.containsFirstByte(of: "e"))
        XCTAssertFalse(words.containsFirstByte(of: ""), "an empty word begins with no byte")
    }

    func test_planFirstBytes_coverEveryWayATokenMatches_andNothingElse() throws {
        let vocabulary = SearchMemoryVocabulary(documents: [
            SearchDocument(name: "Pour-Over Kettle"), SearchDocument(name: "Grinder"), SearchDocument(name: "T-Shirt"),
            SearchDocument(name: "Knife block"),
        ])
        let synonyms = SearchSynonymIndex(SearchSynonyms(groups: [["mug", "cup"]], rules: []))
        let plan = try SearchQueryPlan(query: SearchQuery("grnder knives pourover mug"), vocabulary: vocabulary, synonyms: synonyms)
        let tokens = ["grinder", "knife", "pour", "cup", "mug", "kettle", "block"].flatMap { SearchAnalyzer().tokens(in: $0, field: .name) }
        for token in tokens {
            let matches = plan.matches(of: token)
            XCTAssertEqual(plan.firstBytes.containsFirstByte(of: token.word), ["g", "k", "p", "c", "m"].contains(token.word.first!), token.word)
            if !plan.firstBytes.containsFirstByte(of: token.word) { XCTAssertEqual(matches.count, 0, token.word) }
        }
        XCTAssertEqual(plan.matches(of: SearchAnalyzer().tokens(in: "grinder", field: .name)[0]).map(\.kind), [.typo])
        XCTAssertEqual(plan.matches(of: SearchAnalyzer().tokens(in: "knife", field: .name)[0]).map(\.kind), [.stem])
        XCTAssertEqual(plan.matches(of: SearchAnalyzer().tokens(in: "cup", field: .name)[0]).map(\.kind), [.synonym])
    }

    func test_tokensWithAStemmingSet_stemOnlyTheWordsBeginningWithIt() {
        var set = SearchByteSet()
        set.insertFirstByte(of: "knives")
        let tokens = SearchAnalyzer().tokens(in: "knives boxes", field: .name, stemming: set)
        XCTAssertEqual(tokens.map(\.word), ["knives", "boxes"])
        XCTAssertEqual(tokens.map(\.stem), ["knif", nil])
        XCTAssertEqual(SearchAnalyzer().tokens(in: "knives boxes", field: .name).map(\.stem), ["knif", "box"], "without a set, every word")
    }
}
