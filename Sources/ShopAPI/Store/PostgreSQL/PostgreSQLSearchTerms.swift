/// The search index's terms as PostgreSQL's text search types hold them: a product's
/// `products.search_words` (`tsvector`) and the `tsquery` of a query plan's word lookups
/// (`SearchIndexReads.searchCandidates`). Pure; thread-safe.
///
/// A product's lexemes are the `word` of every token `SearchAnalyzer` finds in its
/// `SearchDocument`, and, for a token whose `stem` is not nil, `~` followed by the stem. A word
/// holds only letters, digits and `.` (`SearchWordScanner`), never `~`, so the two kinds never
/// meet: a prefix lookup (`'pro':*`) finds words only. A stem key (`stem ?? word`) is found
/// exactly: `~key`, or the word `key` itself when the word has no stem of its own (stems depend
/// on the word alone, `SearchLanguage.stem`).
enum PostgreSQLSearchTerms {
    /// The analyzer both the index and its lookups use.
    static let analyzer = SearchAnalyzer()
    /// What a stem lexeme starts with.
    static let stemMarker = "~"

    /// What indexing one product yields.
    struct Lexemes {
        /// The text of the product's `tsvector`.
        var tsvector: String
        /// Its distinct words (no stems): the vocabulary's entries it counts for.
        var words: [String]
    }

    /// The lexemes of `document`.
    static func lexemes(of document: SearchDocument) -> Lexemes {
        var words = Set<String>()
        var stems = Set<String>()
        for token in analyzer.tokens(of: document) {
            words.insert(token.word)
            if let stem = token.stem { stems.insert(stem) }
        }
        let all = Array(words) + stems.map { stemMarker + $0 }
        return Lexemes(tsvector: PostgreSQLWords.tsvector(all), words: Array(words))
    }

    /// The `tsquery` of products that have, for every lookup, one of its words, its stem key, a
    /// word beginning with its prefix, or both words of its split; nil when there are no lookups
    /// (every product).
    static func tsquery(_ lookups: [SearchQueryPlan.WordLookup]) -> String? {
        guard !lookups.isEmpty else { return nil }
        return lookups.map { lookup in
            var alternatives = lookup.words.map(PostgreSQLWords.quoted)
            alternatives.append(PostgreSQLWords.quoted(stemMarker + lookup.stemKey))
            if analyzer.language.stem(lookup.stemKey) == nil, !lookup.words.contains(lookup.stemKey) {
                alternatives.append(PostgreSQLWords.quoted(lookup.stemKey))
            }
            if let prefix = lookup.prefix, !prefix.isEmpty { alternatives.append(PostgreSQLWords.quoted(prefix) + ":*") }
            if let split = lookup.split {
                alternatives.append("(" + PostgreSQLWords.quoted(split.first) + " & " + PostgreSQLWords.quoted(split.second) + ")")
            }
            return "(" + alternatives.joined(separator: " | ") + ")"
        }.joined(separator: " & ")
    }
}
