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
