/// The language-dependent part of search: stems and query filler words.
///
/// - `.english` stems plurals (`SearchStemmer`) and treats `fillerWords` in a query as optional.
/// - `.other` is for a store in any other language: words are folded (lowercase, Latin accents
///   off) and joined/split exactly as in English (apostrophes, hyphens, numbers with units, codes),
///   typos are tolerated the same way, but nothing is stemmed and no query word is a filler, so
///   every query word is required (until words are dropped from the end, `SearchQuery`).
///
/// Value type; `Sendable`.
enum SearchLanguage: Sendable {
    case english
    case other

    /// The stem key of a folded word, or nil when the word is its own key (always, for `.other`).
    func stem(_ word: String) -> String? {
        switch self {
        case .english: SearchStemmer.stem(word)
        case .other: nil
        }
    }

    /// Whether a query word is filler: optional in a query (a product need not have it, one that
    /// has it ranks higher).
    func isFiller(_ word: String) -> Bool {
        switch self {
        case .english: Self.englishFillers.contains(word)
        case .other: false
        }
    }

    /// English function words and shopping filler (`for`, `the`, `with`, `cheap`, `best`,
    /// `looking` …).
    static let englishFillers: Set<String> = [
        "a", "an", "the", "and", "or", "of", "for", "with", "without", "to", "in", "on", "at", "by",
        "from", "into", "onto", "my", "me", "i", "we", "our", "your", "you", "it", "its", "is", "are",
        "be", "this", "that", "these", "those", "some", "any", "very", "so", "as", "than", "but",
        "best", "cheap", "cheapest", "good", "great", "top", "buy", "looking", "want", "need",
        "shipping", "sale", "deal", "deals", "online", "price", "free",
    ]
}
