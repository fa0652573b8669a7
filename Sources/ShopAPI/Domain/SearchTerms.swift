// MARK: - SearchTerms

/// Splits a user's search text into plain words: runs of letters and digits, everything else is a
/// separator. So no user character ever reaches the store as query syntax (`"`, `*`, `%`, `(`,
/// `-` … all vanish). Pure function; thread-safe.
enum SearchTerms {
    /// Words beyond this many are ignored.
    static let maxTerms = 16
    /// Longer words are cut to this many characters (they then match as a prefix).
    static let maxTermLength = 64

    /// The words of `query`, lowercased, at most `maxTerms`. Empty when `query` has no letters or digits.
    static func words(in query: String) -> [String] {
        query.lowercased()
            .split(whereSeparator: { !($0.isLetter || $0.isNumber) })
            .prefix(maxTerms)
            .map { String($0.prefix(maxTermLength)) }
    }
}
