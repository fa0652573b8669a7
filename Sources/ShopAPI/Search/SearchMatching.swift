/// How the words of a query match a product (protocol.md, `catalog.search`), the same on every
/// store:
///
/// - every word of the query must match one of the product's words (`SearchText.productWords`:
///   those of its name and category);
/// - a word of one or two characters matches only that word (`a` finds "a", not "apple");
/// - a longer word also matches the words it begins (`esp` finds "espresso"): the indexed words
///   that begin with it, at most `maxWordsPerPrefix` of them, the first in code point order (the
///   word itself, when indexed, is always the first).
///
/// So a query is a conjunction of at most `SearchTerms.maxTerms` groups of at most
/// `maxWordsPerPrefix` whole words, which each store answers from its word index in catalog
/// order, stopping after the first results: its cost does not grow with the number of matches.
/// Pure; thread-safe.
enum SearchMatching {
    /// Query words at least this long also match as prefixes.
    static let minimumPrefixLength = 3
    /// Most indexed words one query word stands for.
    static let maxWordsPerPrefix = 64

    /// Whether the vocabulary keeps `word`: only words a prefix can stand for, those at least
    /// `minimumPrefixLength` long (shorter query words are matched whole, without the vocabulary).
    static func isInVocabulary(_ word: String) -> Bool {
        word.unicodeScalars.count >= minimumPrefixLength
    }

    /// The smallest string above every string that begins with `prefix` in code point (UTF-8
    /// byte) order, for a range scan `word >= prefix AND word < upperBound`: the prefix followed
    /// by U+10FFFF, which no indexed word holds (it is not a letter or a digit).
    static func upperBound(ofPrefix prefix: String) -> String {
        prefix + "\u{10FFFF}"
    }
}
