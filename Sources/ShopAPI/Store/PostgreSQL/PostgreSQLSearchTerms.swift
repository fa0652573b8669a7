/// The search index's terms as PostgreSQL's text search types hold them: a product's
/// `products.search_words` (`tsvector`) and the `tsquery` of a query plan's word lookups
/// (`SearchIndexReads.searchCandidates`). Pure; thread-safe.
///
/// A product's lexemes are the `word` of every token `SearchAnalyzer` finds in its
/// `SearchDocument`, and, for a token whose `stem` is not nil, `~` followed by the stem; then the
/// same for the name's tokens, marked (`SearchIndexTerms.nameMark`: `^grinder`, `~^grinder`). A
/// word holds only letters, digits and `.` (`SearchWordScanner`), never `~` or `^`, so the kinds
/// never meet: a prefix lookup (`'pro':*`) finds words only, `'^pro':*` name words only. A stem
/// key (`stem ?? word`) is found exactly: `~key`, or the word `key` itself when the word has no
/// stem of its own (stems depend on the word alone, `SearchLanguage.stem`).
///
/// A word longer than `maxLexemeBytes` (only a long chain of hyphenated pieces written together
/// makes one) is indexed, counted and looked up cut to that many bytes, so that no lexeme passes
/// PostgreSQL's limits (2 046 bytes in a `tsvector`, about 2 700 in a B-tree key): its lookups
/// find a superset, and the vocabulary holds it cut. A product whose distinct lexemes exceed a
/// `tsvector`'s 1 MB in all (only possible near the 1 MiB record limit) fails its import.
enum PostgreSQLSearchTerms {
    /// The analyzer both the index and its lookups use.
    static let analyzer = SearchAnalyzer()
    /// What a stem lexeme starts with.
    static let stemMarker = "~"
    /// The longest lexeme, in UTF-8 bytes.
    static let maxLexemeBytes = 1000

    /// `word` as the index holds it: cut to `maxLexemeBytes` at a scalar boundary.
    static func indexed(_ word: String) -> String {
        guard word.utf8.count > maxLexemeBytes else { return word }
        var cut = ""
        var bytes = 0
        for scalar in word.unicodeScalars {
            bytes += String(scalar).utf8.count
            if bytes > maxLexemeBytes { break }
            cut.unicodeScalars.append(scalar)
        }
        return cut
    }

    /// What indexing one product yields.
    struct Lexemes {
        /// The text of the product's `tsvector`.
        var tsvector: String
        /// Its distinct words (no stems): the vocabulary's entries it counts for.
        var words: [String]
    }

    /// The lexemes of `document`.
    static func lexemes(of document: SearchDocument) -> Lexemes {
        let terms = SearchIndexTerms.indexed(document, analyzer: analyzer)
        let words = Set(terms.words.map(indexed))
        let stems = Set(terms.stems.map(indexed)).union(terms.nameStems.map(indexed)).map { stemMarker + $0 }
        let all = Array(words) + stems + Set(terms.nameWords.map(indexed))
        return Lexemes(tsvector: PostgreSQLWords.tsvector(all), words: Array(words))
    }

    /// An SQL condition true for a lexeme `column` that is a vocabulary word: not a stem
    /// (`stemMarker`) and not a name term (`SearchIndexTerms.nameMark`).
    static func isWord(_ column: String) -> String {
        "left(\(column), 1) NOT IN ('\(stemMarker)', '\(SearchIndexTerms.nameMark)')"
    }

    /// The `tsquery` of products that have, for every lookup, one of its words, its stem key, a
    /// word beginning with its prefix, or both words of its split; nil when there are no lookups
    /// (every product).
    static func tsquery(_ lookups: [SearchQueryPlan.WordLookup]) -> String? {
        guard !lookups.isEmpty else { return nil }
        let term = { (word: String) in PostgreSQLWords.quoted(indexed(word)) }
        return lookups.map { lookup in
            var alternatives = (lookup.words + (lookup.prefixWords ?? [])).filter { !$0.isEmpty }.map(term)
            if !lookup.stemKey.isEmpty {
                alternatives.append(PostgreSQLWords.quoted(stemMarker + indexed(lookup.stemKey)))
                if analyzer.language.stem(SearchIndexTerms.unmarked(lookup.stemKey)) == nil { alternatives.append(term(lookup.stemKey)) }
            }
            if let prefix = lookup.prefix, !prefix.isEmpty, lookup.prefixWords == nil { alternatives.append(term(prefix) + ":*") }
            if let split = lookup.split, !split.first.isEmpty, !split.second.isEmpty {
                alternatives.append("(" + term(split.first) + " & " + term(split.second) + ")")
            }
            // No alternative at all (no word, no key): a lexeme no product has.
            if alternatives.isEmpty { alternatives.append(term(stemMarker)) }
            return "(" + alternatives.joined(separator: " | ") + ")"
        }.joined(separator: " & ")
    }
}
