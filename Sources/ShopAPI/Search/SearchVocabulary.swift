#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The words a store has indexed (every token's `word` of its live products, `SearchAnalyzer`),
/// as search needs them to resolve a query: in ascending Unicode scalar order (UTF-8 byte order,
/// which is what both stores' indexes sort by with a binary collation), each with the number of
/// products that have it.
///
/// A conforming type must enumerate each word once, in ascending order, only words in the asked
/// range; it may throw (a store's read failing). `SearchTypoCandidates` and `SearchQueryPlanner`
/// are written against this protocol only, so a test runs them on `SearchMemoryVocabulary`.
protocol SearchVocabulary {
    /// Calls `body` with each word `w` such that `lowerBound <= w` and, when `upperBound` is not
    /// nil, `w < upperBound`, in ascending order, until `body` returns false or the range ends.
    func enumerateWords(from lowerBound: String, to upperBound: String?, _ body: (String) throws -> Bool) throws
    /// How many products have `word` (0 when none does).
    func documentFrequency(of word: String) throws -> Int
}

extension SearchVocabulary {
    /// Whether some product has `word`.
    func contains(_ word: String) throws -> Bool {
        try documentFrequency(of: word) > 0
    }
}

/// Ascending Unicode scalar order of two strings, the order of `SearchVocabulary`.
enum SearchWordOrder {
    static func precedes(_ a: String, _ b: String) -> Bool {
        // UTF-8 byte order is scalar order; memcmp of the contiguous bytes (a native string's,
        // small ones included) is several times faster than comparing the views element by element.
        let ordered = a.utf8.withContiguousStorageIfAvailable { a in
            b.utf8.withContiguousStorageIfAvailable { b in
                let common = min(a.count, b.count)
                let order = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
                return order != 0 ? order < 0 : a.count < b.count
            }
        }
        return (ordered ?? nil) ?? a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// The smallest string above every string that begins with `prefix` (the prefix followed by
    /// U+10FFFF, which no word holds), for a range `[prefix, upperBound(ofPrefix: prefix))`.
    static func upperBound(ofPrefix prefix: String) -> String {
        prefix + "\u{10FFFF}"
    }
}
