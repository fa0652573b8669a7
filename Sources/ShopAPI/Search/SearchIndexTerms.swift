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

    /// The vocabulary words of `document` (each token's `word`, `SearchAnalyzer`), once each.
    static func words(of document: SearchDocument, analyzer: SearchAnalyzer = SearchAnalyzer()) -> Set<String> {
        Set(analyzer.tokens(of: document).map(\.word))
    }

    /// The words of `document`'s name, marked (`nameMark`).
    static func nameWords(of document: SearchDocument, analyzer: SearchAnalyzer = SearchAnalyzer()) -> Set<String> {
        Set(analyzer.tokens(in: document.name, field: .name).map { nameMark + $0.word })
    }

    /// The terms `document` is indexed under: its words and each token's stem key (`stem ?? word`),
    /// and the same of its name's tokens, marked.
    static func terms(of document: SearchDocument, analyzer: SearchAnalyzer = SearchAnalyzer()) -> Set<String> {
        var terms = Set<String>()
        for token in analyzer.tokens(of: document) {
            terms.insert(token.word)
            if let stem = token.stem { terms.insert(stem) }
            if token.field == .name {
                terms.insert(nameMark + token.word)
                if let stem = token.stem { terms.insert(nameMark + stem) }
            }
        }
        return terms
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
