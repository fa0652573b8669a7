/// What a store indexes a product under, and whether those terms can satisfy a query plan's word
/// lookups (`SearchQueryPlan.WordLookup`): the one definition the SQLite index, its scan mode,
/// PostgreSQL's and the in-memory reference all follow, so they find the same candidates. Pure;
/// thread-safe.
///
/// **Name terms.** Besides its words and stem keys, a product is indexed under each word and stem
/// key of its *name*, marked with `nameMark` (`^grinder`), so that a store finds the products
/// whose name has every word of a query with the same lookups (`nameLookup`), and search ranks
/// those first when a query matches more products than it ranks (`ProductSearch`). A word holds
/// only letters, digits and `.` (`SearchWordScanner`), so a marked term is never a word; the
/// vocabulary (`SearchVocabulary`) holds unmarked words only.
enum SearchIndexTerms {
    /// What a name term starts with.
    static let nameMark = "^"

    /// The terms of one product by kind, from one analysis: each store writes them in its own
    /// form (SQLite's `search_documents` and FTS5 terms, PostgreSQL's lexemes), and all of them
    /// together are `terms(of:)`. Value type.
    struct Indexed {
        /// Each token's `word`, once each: the vocabulary words.
        var words = Set<String>()
        /// Each token's `stem`, where it has one (its stem key is then not its word).
        var stems = Set<String>()
        /// The words of the name's tokens, marked (`nameMark`).
        var nameWords = Set<String>()
        /// The stems of the name's tokens, marked.
        var nameStems = Set<String>()
    }

    /// The terms `document` is indexed under, by kind.
    static func indexed(_ document: SearchDocument, analyzer: SearchAnalyzer = SearchAnalyzer()) -> Indexed {
        var indexed = Indexed()
        for token in analyzer.tokens(of: document) {
            indexed.words.insert(token.word)
            if let stem = token.stem { indexed.stems.insert(stem) }
            if token.field == .name {
                indexed.nameWords.insert(nameMark + token.word)
                if let stem = token.stem { indexed.nameStems.insert(nameMark + stem) }
            }
        }
        return indexed
    }

    /// The vocabulary words of `document` (each token's `word`, `SearchAnalyzer`), once each.
    static func words(of document: SearchDocument, analyzer: SearchAnalyzer = SearchAnalyzer()) -> Set<String> {
        Set(analyzer.tokens(of: document).map(\.word))
    }

    /// The terms `document` is indexed under: its words and each token's stem key (`stem ?? word`),
    /// and the same of its name's tokens, marked.
    static func terms(of document: SearchDocument, analyzer: SearchAnalyzer = SearchAnalyzer()) -> Set<String> {
        let indexed = indexed(document, analyzer: analyzer)
        return indexed.words.union(indexed.stems).union(indexed.nameWords).union(indexed.nameStems)
    }

    /// Whether `term` is a name term (`nameMark`).
    static func isNameTerm(_ term: some StringProtocol) -> Bool {
        term.utf8.first == nameMark.utf8.first
    }

    /// `term` without its name mark (itself when it has none).
    static func unmarked(_ term: String) -> String {
        isNameTerm(term) ? String(term.dropFirst()) : term
    }

    /// The lookup of the name terms that satisfy `lookup` in the name alone: every word, the stem
    /// key, the prefix, the split and the prefix's words marked.
    static func nameLookup(_ lookup: SearchQueryPlan.WordLookup) -> SearchQueryPlan.WordLookup {
        SearchQueryPlan.WordLookup(
            words: lookup.words.map { nameMark + $0 }, stemKey: nameMark + lookup.stemKey,
            prefix: lookup.prefix.map { nameMark + $0 },
            split: lookup.split.map { SearchQueryPlan.Split(first: nameMark + $0.first, second: nameMark + $0.second) },
            prefixWords: lookup.prefixWords?.map { nameMark + $0 })
    }

    /// Whether a product indexed under `terms` can match `lookup`: it has one of `lookup.words`,
    /// or its stem key, or a term beginning with its prefix, or both halves of its split. (A stem
    /// key that is also some word makes this a superset; the matcher checks each candidate.)
    static func satisfies(_ lookup: SearchQueryPlan.WordLookup, terms: Set<String>) -> Bool {
        if lookup.words.contains(where: terms.contains) || terms.contains(lookup.stemKey) { return true }
        if let prefix = lookup.prefix, terms.contains(where: { $0.utf8.starts(with: prefix.utf8) }) { return true }
        if let split = lookup.split, terms.contains(split.first), terms.contains(split.second) { return true }
        return false
    }
}
