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
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// The smallest string above every string that begins with `prefix` (the prefix followed by
    /// U+10FFFF, which no word holds), for a range `[prefix, upperBound(ofPrefix: prefix))`.
    static func upperBound(ofPrefix prefix: String) -> String {
        prefix + "\u{10FFFF}"
    }
}

/// A `SearchVocabulary` held in memory: a sorted array and a dictionary of frequencies. Built
/// once; lookups are binary searches. For tests and small catalogs. Value type; `Sendable`.
struct SearchMemoryVocabulary: SearchVocabulary, Sendable {
    private let words: [String]
    private let frequencies: [String: Int]

    /// A vocabulary where each of `frequencies`' words has its count (words with count 0 are
    /// left out).
    init(frequencies: [String: Int]) {
        self.frequencies = frequencies.filter { $0.value > 0 }
        self.words = self.frequencies.keys.sorted(by: SearchWordOrder.precedes)
    }

    /// The vocabulary of `documents` as `analyzer` reads them: each token's word, counted once
    /// per document.
    init(documents: [SearchDocument], analyzer: SearchAnalyzer = SearchAnalyzer()) {
        var frequencies: [String: Int] = [:]
        for document in documents {
            for word in Set(analyzer.tokens(of: document).map(\.word)) { frequencies[word, default: 0] += 1 }
        }
        self.init(frequencies: frequencies)
    }

    var count: Int { words.count }

    func enumerateWords(from lowerBound: String, to upperBound: String?, _ body: (String) throws -> Bool) throws {
        var low = 0, high = words.count
        while low < high {
            let middle = (low + high) / 2
            if SearchWordOrder.precedes(words[middle], lowerBound) { low = middle + 1 } else { high = middle }
        }
        var index = low
        while index < words.count {
            let word = words[index]
            if let upperBound, !SearchWordOrder.precedes(word, upperBound) { return }
            if try !body(word) { return }
            index += 1
        }
    }

    func documentFrequency(of word: String) throws -> Int {
        frequencies[word] ?? 0
    }
}
