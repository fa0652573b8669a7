import XCTest
@testable import ShopAPI

/// `SearchAnalyzer` and `SearchWordScanner`: the tokens of documents and queries.
final class SearchAnalyzerTests: XCTestCase {
    private let analyzer = SearchAnalyzer()

    private func words(_ text: String, _ form: SearchToken.Form? = nil) -> [String] {
        analyzer.tokens(in: text, field: .name).filter { form == nil || $0.form == form }.map(\.word)
    }

    func test_words_areFolded_lowercaseWithoutLatinAccents() {
        XCTAssertEqual(words("Café CRÈME Ståål Naïve"), ["cafe", "creme", "staal", "naive"])
        XCTAssertEqual(words("ÉCLAIR"), ["eclair"])
        XCTAssertEqual(words("Cafe\u{301}"), ["cafe"], "a combining accent is dropped")
        XCTAssertEqual(words("Straße Ørsted"), ["straße", "ørsted"], "letters without a decomposition stay")
    }

    func test_apostrophes_joinTheWord_andDocumentsGetTheSplitPieces() {
        XCTAssertEqual(words("De'Longhi Dedica", .word), ["delonghi", "dedica"])
        XCTAssertEqual(words("De'Longhi", .split), ["de", "longhi"])
        XCTAssertEqual(words("Kiehl’s Cream", .word), ["kiehls", "cream"])
        XCTAssertEqual(words("Kiehl's", .split), ["kiehl"], "a piece of one letter is not emitted")
        XCTAssertEqual(words("L'Occitane", .word), ["loccitane"])
        XCTAssertEqual(words("Dunkin' Donuts", .word), ["dunkin", "donuts"])
        let tokens = analyzer.tokens(in: "De'Longhi Dedica", field: .brand)
        XCTAssertEqual(tokens.map(\.position), [0, 0, 0, 1])
        XCTAssertTrue(tokens.allSatisfy { $0.field == .brand })
    }

    func test_hyphenatedWords_givePieces_andThePiecesJoined() {
        let tokens = analyzer.tokens(in: "Hario Pour-Over Dripper", field: .name)
        XCTAssertEqual(tokens.map(\.word), ["hario", "pour", "over", "pourover", "dripper"])
        XCTAssertEqual(tokens.map(\.form), [.word, .part, .part, .joined, .word])
        XCTAssertEqual(tokens.map(\.position), [0, 1, 2, 1, 3])
        XCTAssertEqual(tokens[3].span, 2)
        XCTAssertEqual(words("Black+Decker"), ["black", "decker", "blackdecker"])
        XCTAssertEqual(words("Wi-Fi Router"), ["wi", "fi", "wifi", "router"])
        XCTAssertEqual(words("pour - over"), ["pour", "over"], "a hyphen between spaces separates")
    }

    func test_skus_areKeptWholeAndSplit_andHaveDigits() {
        let tokens = analyzer.tokens(in: "BRZ-ENC-001", field: .sku)
        XCTAssertEqual(tokens.map(\.word), ["brz", "enc", "001", "brzenc001"])
        XCTAssertEqual(tokens.last?.span, 3)
        XCTAssertEqual(tokens.map(\.hasDigits), [false, false, true, true])
        XCTAssertEqual(words("KM810 S24 v60 8a"), ["km810", "s24", "v60", "8a"])
    }

    func test_numbersWithUnits_areOneWord_whateverTheSpellingAndSpacing() {
        for text in ["500ml", "500 ml", "500 mL", "500 ML", "500  Milliliters", "500ML"] {
            XCTAssertEqual(words(text), ["500ml"], text)
        }
        for text in ["1.5l", "1.5 L", "1,5 l", "1.50 litres"] {
            XCTAssertEqual(words(text), ["1.5l"], text)
        }
        XCTAssertEqual(words("10,000mAh Power Bank"), ["10000mah", "power", "bank"])
        XCTAssertEqual(words("Whey 5 lbs"), ["whey", "5lb"])
        XCTAssertEqual(words("4.5 qt, Graphite"), ["4.5qt", "graphite"])
        XCTAssertEqual(words("Backpack (30L, Sand)"), ["backpack", "30l", "sand"])
        XCTAssertEqual(words("2.0 kg"), ["2kg"])
        XCTAssertEqual(words("iPhone 15 Pro"), ["iphone", "15", "pro"], "a number without a unit stays")
        XCTAssertEqual(words("2 in 1"), ["2", "in", "1"], "`in` apart from its number is the word")
        XCTAssertEqual(words("1.5"), ["1.5"])
        let tokens = analyzer.tokens(in: "Water 500 ml bottle", field: .name)
        XCTAssertEqual(tokens.map(\.position), [0, 1, 2], "a number with its unit takes one position")
        XCTAssertEqual(tokens[1].utf16Range, 6..<12)
    }

    func test_tokens_carryUTF16Ranges_ofTheOriginalText() {
        let text = "𐐀 🎉Café Pour-Over"
        let tokens = analyzer.tokens(in: text, field: .name)
        let utf16 = Array(text.utf16)
        func slice(_ range: Range<Int>) -> String { String(decoding: utf16[range], as: UTF16.self) }
        XCTAssertEqual(tokens.map { slice($0.utf16Range) }, ["𐐀", "Café", "Pour", "Over", "Pour-Over"])
        XCTAssertEqual(tokens.first?.word, "𐐨", "a letter outside the BMP is lowercased")
    }

    func test_stems_conflatePlurals_forEnglish_andNothingForOtherLanguages() {
        let stems = analyzer.tokens(in: "Machines Knives Batteries", field: .name).map { $0.stem ?? $0.word }
        XCTAssertEqual(stems, ["machin", "knif", "batteri"])
        let other = SearchAnalyzer(language: .other).tokens(in: "Machines", field: .name)
        XCTAssertNil(other[0].stem)
    }

    func test_document_tokens_coverEveryField_inFieldOrder() {
        let document = SearchDocument(name: "Encore Grinder", brand: "Baratza", category: "coffee",
                                      description: "Conical burrs.", sku: "BRZ-ENC-001", handle: "encore-grinder")
        let tokens = analyzer.tokens(of: document)
        XCTAssertEqual(tokens.map(\.field), [.name, .name, .brand, .category, .description, .description,
                                             .sku, .sku, .sku, .sku, .handle, .handle, .handle])
    }

    func test_hostileAndEmptyText_neverTraps() {
        for text in ["", "   ", "'", "-", "''--..", "1.", ".5", "1,", "a'", "'a", "-a-", "5 ", String(repeating: "x", count: 500),
                     String(repeating: "1.", count: 100), "\u{0}", "\u{10FFFF}", "\u{301}"] {
            _ = analyzer.tokens(in: text, field: .name)
        }
        XCTAssertEqual(words(String(repeating: "x", count: 500)).first?.count, SearchText.maxWordLength)
    }

    func test_scannerRuns_areExactlySearchTextsWords_onRandomMixedText() {
        var random = SplitMix64(seed: 11)
        let pool: [String] = ["a", "Z", "q", "7", "0", " ", "-", "'", ".", ",", "é", "É", "Ö", "ß", "ø", "İ", "𐐀", "\u{301}",
                              "日", "٣", "—", "’", "\t", "🎉", "ǅ"]
        for _ in 0..<2000 {
            let text = (0..<random.next(below: 24)).map { _ in random.pick(pool) }.joined()
            XCTAssertEqual(SearchWordScanner.runs(in: text).map(\.text), SearchText.words(in: text), text)
        }
    }
}
