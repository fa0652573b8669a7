// MARK: - Search reads (SearchIndexReads), by reading the whole catalog

/// `SearchIndexReads` on PostgreSQL for now: each read builds a `SearchScanIndex` of every live
/// product, so results are right and equal to the other stores' but each call costs a read of
/// the whole catalog. Kept until the PostgreSQL index (the search-postgres branch) replaces this
/// file.
extension PostgreSQLShopTransaction {
    func enumerateWords(from lowerBound: String, to upperBound: String?, _ body: (String) throws -> Bool) throws {
        try SearchScanIndex.reading(self).vocabulary.enumerateWords(from: lowerBound, to: upperBound, body)
    }

    func documentFrequency(of word: String) throws -> Int {
        try SearchScanIndex.reading(self).vocabulary.documentFrequency(of: word)
    }

    func searchCandidates(lookups: [SearchQueryPlan.WordLookup], filters: ProductSearchFilters, limit: Int) throws -> [Int64] {
        try SearchScanIndex.reading(self).candidates(lookups: lookups, filters: filters, limit: limit)
    }

    func searchCandidateCount(lookups: [SearchQueryPlan.WordLookup], filters: ProductSearchFilters) throws -> Int {
        try SearchScanIndex.reading(self).count(lookups: lookups, filters: filters)
    }

    func searchEntries(seqs: [Int64]) throws -> [SearchEntry] {
        try SearchScanIndex.reading(self).entries(seqs: seqs)
    }
}
