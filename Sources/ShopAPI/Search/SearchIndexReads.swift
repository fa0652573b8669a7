/// What search reads from a store, inside one read transaction: its live vocabulary (this
/// protocol refines `SearchVocabulary`), the products a query plan's words may match, and the
/// fields the search core ranks, filters, sorts and counts them by. Everything else (matching
/// each candidate, ranking, sorting, facets, paging, highlights) happens in Swift, once, for both
/// stores, so both give the same results in the same order.
///
/// Only live products count: a draft's or an archived product's words are in neither the
/// vocabulary nor the candidates. A product is indexed under the tokens (`SearchAnalyzer`) of its
/// `SearchEntry.document`: each token's `word` (the vocabulary) and its stem key (`stem ?? word`).
/// Used only on the thread that received the transaction, while its closure runs.
protocol SearchIndexReads: SearchVocabulary {
    /// The catalog positions (`product_seq`: the `seq` of each product's first variant) of live
    /// products that pass `filters` and that, for every lookup of `lookups`, have one of
    /// `lookup.words`, a token whose stem key is `lookup.stemKey`, a word beginning with
    /// `lookup.prefix` (when not nil), or both words of `lookup.split` (when not nil). Ascending,
    /// at most `limit` (the first ones). With no lookups: every live product that passes `filters`.
    /// A superset is allowed (the core checks each candidate), a product missing is not.
    func searchCandidates(lookups: [SearchQueryPlan.WordLookup], filters: ProductSearchFilters, limit: Int) throws -> [Int64]
    /// How many live products `searchCandidates` would return with no limit, counted up to
    /// `limit` (a larger count is `limit`).
    func searchCandidateCount(lookups: [SearchQueryPlan.WordLookup], filters: ProductSearchFilters, atMost limit: Int) throws -> Int
    /// The entries of the live products at `seqs` (catalog positions `searchCandidates` returned),
    /// in `seqs` order; a position that is not a live product's is skipped.
    func searchEntries(seqs: [Int64]) throws -> [SearchEntry]
}

extension SearchIndexReads {
    /// How many live products `searchCandidates` would return with no limit.
    func searchCandidateCount(lookups: [SearchQueryPlan.WordLookup], filters: ProductSearchFilters) throws -> Int {
        try searchCandidateCount(lookups: lookups, filters: filters, atMost: .max)
    }
}

/// One live product as search reads it: its first variant (which a page's `CatalogItem` starts
/// from), the text it is indexed under, and the facts filters and sorts use. Value type; `Sendable`.
struct SearchEntry: Sendable {
    /// The product's place in catalog order (`product_seq`).
    var seq: Int64
    var first: Product
    /// Name, brand, category, description and handle of the product; `sku` holds every
    /// variant's SKU, in catalog order, separated by single spaces.
    var document: SearchDocument
    var priceMinCents: Int
    var priceMaxCents: Int
    /// Whether some variant has a unit available.
    var inStock: Bool
}
