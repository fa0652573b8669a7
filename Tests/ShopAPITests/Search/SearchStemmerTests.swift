import XCTest
@testable import ShopAPI

/// `SearchStemmer`: a word and its plural share one key; other words keep theirs.
final class SearchStemmerTests: XCTestCase {
    private func key(_ word: String) -> String { SearchStemmer.stem(word) ?? word }

    func test_singularAndPlural_shareAKey() {
        let pairs = [("machine", "machines"), ("battery", "batteries"), ("knife", "knives"), ("mouse", "mice"),
                     ("glass", "glasses"), ("wash", "washes"), ("box", "boxes"), ("cookie", "cookies"),
                     ("glove", "gloves"), ("toy", "toys"), ("shelf", "shelves"), ("leash", "leashes"),
                     ("sock", "socks"), ("tee", "tees"), ("foot", "feet"), ("measure", "measures"),
                     ("pan", "pans"), ("monitor", "monitors"), ("brush", "brushes"), ("lens", "lenses"),
                     ("child", "children"), ("woman", "women"), ("tooth", "teeth"), ("person", "people")]
        for (singular, plural) in pairs {
            XCTAssertEqual(key(singular), key(plural), "\(singular) / \(plural)")
        }
    }

    /// What `SearchQueryPlan.firstBytes` relies on: a key begins with its word's first byte.
    func test_aKeyBeginsWithItsWordsFirstByte() {
        let words = Array(SearchStemmer.irregular.keys) + ["batteries", "knives", "cookies", "glasses", "ies", "yes", "sees", "ays",
                                                            "aies", "eies", "bus", "xyz", "toys", "ooze", "ease", "ssss"]
        for word in words {
            guard let stem = SearchStemmer.stem(word) else { continue }
            XCTAssertEqual(stem.utf8.first, word.utf8.first, "\(word) → \(stem)")
        }
    }

    func test_wordsThatAreNotPlurals_keepTheirKeysApart() {
        XCTAssertEqual(key("glass"), "glass")
        XCTAssertEqual(key("citrus"), "citrus")
        XCTAssertEqual(key("analysis"), "analysis")
        XCTAssertNotEqual(key("cutting"), key("cut"), "-ing is not stemmed")
        XCTAssertNil(SearchStemmer.stem("v60"), "a word with digits is its own key")
        XCTAssertNil(SearchStemmer.stem("ab"))
        XCTAssertNil(SearchStemmer.stem("café"), "only a–z words are stemmed")
    }
}
