/// What a store indexes a product under, and whether those terms can satisfy a query plan's word
/// lookups (`SearchQueryPlan.WordLookup`): the one definition the SQLite index, its scan mode
/// and the in-memory reference all follow, so they find the same candidates. Pure; thread-safe.
enum SearchIndexTerms {
    /// The vocabulary words of `document` (each token's `word`, `SearchAnalyzer`), once each.
    static func words(of document: SearchDocument, analyzer: SearchAnalyzer = SearchAnalyzer()) -> Set<String> {
        Set(analyzer.tokens(of: document).map(\.word))
    }

    /// The terms `document` is indexed under: its words and each token's stem key (`stem ?? word`).
    static func terms(of document: SearchDocument, analyzer: SearchAnalyzer = SearchAnalyzer()) -> Set<String> {
        var terms = Set<String>()
        for token in analyzer.tokens(of: document) {
            terms.insert(token.word)
            if let stem = token.stem { terms.insert(stem) }
        }
        return terms
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
