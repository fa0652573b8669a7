/// Splits a user's search text into the words search matches (`SearchText`'s words: letters and
/// digits, lowercased, accents removed; everything else is a separator). So no user character
/// ever reaches the store as query syntax (`"`, `*`, `%`, `(`, `-` … all vanish). Pure function;
/// thread-safe.
enum SearchTerms {
    /// Words beyond this many are ignored.
    static let maxTerms = 16
    /// Longer words are cut to this many characters (they then match as a prefix).
    static let maxTermLength = SearchText.maxWordLength

    /// The words of `query`, at most `maxTerms`, repeats removed. Empty when `query` has no
    /// letters or digits.
    static func words(in query: String) -> [String] {
        var terms: [String] = []
        for word in SearchText.words(in: query) where !terms.contains(word) {
            terms.append(word)
            if terms.count == maxTerms { break }
        }
        return terms
    }
}
