/// The words an import indexes, gathered so that each is added to the store's vocabulary
/// (`ShopReadTransaction.indexedWords`; only the words `SearchMatching.isInVocabulary` keeps)
/// once per batch rather than once per product: a set of words, handed to `flush` whenever it
/// reaches `capacity` and at the end, so memory stays bounded whatever the file. Value type; one
/// thread.
struct SearchVocabularyBuffer {
    private var words = Set<String>()
    private let capacity: Int

    init(capacity: Int = 65_536) {
        self.capacity = capacity
    }

    /// Adds `newWords`; when the set is full, first hands it to `flush` and empties it.
    mutating func add(_ newWords: [String], flush: (Set<String>) throws -> Void) rethrows {
        if words.count >= capacity {
            try flush(words)
            words.removeAll(keepingCapacity: true)
        }
        for word in newWords where SearchMatching.isInVocabulary(word) { words.insert(word) }
    }

    /// Hands what is left to `flush`.
    mutating func finish(_ flush: (Set<String>) throws -> Void) rethrows {
        if !words.isEmpty { try flush(words) }
        words.removeAll()
    }
}
