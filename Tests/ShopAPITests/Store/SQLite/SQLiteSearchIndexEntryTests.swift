import XCTest
@testable import ShopAPI

/// What indexing a product writes (`SQLiteSearchIndex.entry`) is what taking it out reads back
/// (`SQLiteSearchIndex.terms(ofWords:)` of the stored text): a contentless FTS5 table is told
/// which terms to delete, so the two must agree term for term.
final class SQLiteSearchIndexEntryTests: XCTestCase {
    func test_entry_termsAreWhatTheStoredWordsGiveBack_markedNameTermsIncluded() {
        let documents = [
            SearchDocument(name: "Pour-Over Kettles", brand: "De'Longhi", category: "Kitchen", description: "Knives, batteries & 1,5 L jugs.",
                           sku: "BRZ-ENC-001 BRZ-ENC-002", handle: "pour-over-kettle"),
            SearchDocument(name: "Café Crème Cups", brand: "", category: "cups", description: "", sku: "CUP-1", handle: "CUP-1"),
            SearchDocument(name: "", brand: "Kiehl's", category: "skincare", description: "Mice and geese", sku: "K-1", handle: "K-1"),
        ]
        for document in documents {
            let entry = SQLiteSearchIndex.entry(of: document)
            XCTAssertEqual(entry.terms, SQLiteSearchIndex.terms(ofWords: entry.wordsText), document.name)
            XCTAssertEqual(entry.words, SearchIndexTerms.words(of: document), document.name)
            XCTAssertEqual(Set(entry.wordsText.split(separator: " ").map(String.init)),
                           entry.words.union(SearchIndexTerms.indexed(document).nameWords), document.name)
            XCTAssertEqual(Set(entry.terms.split(separator: " ").map(String.init)), SearchIndexTerms.terms(of: document), document.name)
        }
    }
}
