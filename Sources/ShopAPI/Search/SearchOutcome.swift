/// The outcome of a search before paging: the ranked candidates and how the query was read.
/// `droppedWords` are the words that were made optional because all words together found
/// nothing, or fewer than the minimum asked (empty when they did not, and when nothing was found
/// at all); `corrections` and `readAs` say what typos were read as, for a "did you mean". Value
/// type; `Sendable`.
///
/// How a store uses the search core, end to end:
///
/// ```swift
/// let plan = try SearchQueryPlan(query: SearchQuery(text), vocabulary: storeVocabulary)
/// let outcome = try SearchOutcome.search(plan, statistics: storeStatistics, minimumMatches: 20) { plan in
///     // products having, for every required word, one of: the word, its stem key, a word it
///     // begins (last word), a typo candidate, its split or a join; then their facts:
///     try candidateProducts(for: plan).map { SearchDocumentMatcher.facts(of: $0.document, catalogPosition: $0.seq, plan: plan) }
/// }
/// ```
///
/// At import, the store indexes `SearchAnalyzer().tokens(of: document)`: each token's `word` (the
/// vocabulary) and its `stem ?? word` (the stem keys).
struct SearchOutcome: Sendable {
    /// The plan the outcome was ranked for (the query with `droppedWords` optional).
    var plan: SearchQueryPlan
    var ranked: [(facts: SearchMatchFacts, key: SearchRankingKey)]
    var droppedWords: [String]
    var corrections: [SearchCorrection]
    var readAs: String

    /// Ranks the candidates `candidates(plan)` returns for `plan`; while fewer than
    /// `minimumMatches` match and a word can be dropped, drops the last required word
    /// (`SearchQueryPlan.droppingLastWord`) and asks again: Meilisearch's
    /// `matchingStrategy: last`. Products with more of the query's words still rank first
    /// (`SearchRankingKey.matchedWords`), so dropping only adds products after those that have
    /// every word. `minimumMatches` 1 drops words only when all of them together find nothing; a
    /// caller that pages must pass the same value for every page of a query.
    /// - Parameter candidates: the facts of the products a store finds for a plan (a superset of
    ///   those that match is fine: `SearchRanking.key` filters).
    /// No word is dropped when the best candidate's SKU or handle is the query. A word whose
    /// dropping added no product is not reported as dropped: the outcome is that of
    /// the last plan that found more than the one before it (`candidates` is asked for every plan
    /// tried; the caller's last call is not necessarily the outcome's plan).
    static func search(_ plan: SearchQueryPlan, statistics: SearchCorpusStatistics? = nil, minimumMatches: Int = 1,
                       candidates: (SearchQueryPlan) throws -> [SearchMatchFacts]) rethrows -> SearchOutcome {
        var plan = plan
        var best = (plan: plan, ranked: SearchRanking.rank(try candidates(plan), plan: plan, statistics: statistics))
        // A query that is a product's SKU or handle asked for that product: no word is left out.
        while best.ranked.count < max(minimumMatches, 1), best.ranked.first?.key.isIdentifierMatch != true,
              let relaxed = plan.droppingLastWord() {
            plan = relaxed
            let ranked = SearchRanking.rank(try candidates(plan), plan: plan, statistics: statistics)
            if ranked.count > best.ranked.count { best = (plan, ranked) }
        }
        return SearchOutcome(plan: best.plan, ranked: best.ranked, droppedWords: best.ranked.isEmpty ? [] : best.plan.query.droppedWords,
                             corrections: best.plan.corrections, readAs: best.plan.readAs)
    }
}
