/// `SearchIndexReads`'s answers computed from every live product read into memory: the
/// vocabulary of their words (`SearchMemoryVocabulary`), candidates by `SearchIndexTerms` and
/// `ProductSearchFilters.admits`, in catalog order. The simple reference a store's index must
/// agree with, and what a store without an index of its own answers from (its cost grows with the
/// catalog). Value type; `Sendable`.
struct SearchScanIndex: Sendable {
    /// A live product: its entry and each variant's price and stock.
    struct Item: Sendable {
        var entry: SearchEntry
        var variants: [(priceCents: Int, inStock: Bool)]
        var terms: Set<String>
    }

    let items: [Item]
    let vocabulary: SearchMemoryVocabulary

    /// The index of `products`, in any order.
    init(products: [(entry: SearchEntry, variants: [(priceCents: Int, inStock: Bool)])]) {
        items = products.sorted { $0.entry.seq < $1.entry.seq }
            .map { Item(entry: $0.entry, variants: $0.variants, terms: SearchIndexTerms.terms(of: $0.entry.document)) }
        vocabulary = SearchMemoryVocabulary(documents: items.map(\.entry.document))
    }

    /// The index of every live product `transaction` lists (`products`, `variantChoices`), read
    /// `batch` products at a time.
    static func reading(_ transaction: some ShopReadTransaction, batch: Int = 500) throws -> SearchScanIndex {
        var products: [(entry: SearchEntry, variants: [(priceCents: Int, inStock: Bool)])] = []
        var afterSeq: Int64?
        while true {
            let page = try transaction.products(afterSeq: afterSeq, category: nil, limit: batch)
            guard let last = page.last else { break }
            afterSeq = last.seq
            let choices = try transaction.variantChoices(handles: page.map(\.listed.first.handle))
            for (seq, listed) in page {
                let first = listed.first
                let variants = choices[first.handle] ?? [listed.onlyChoice]
                let entry = SearchEntry(
                    seq: seq, first: first,
                    document: SearchDocument(name: first.name, brand: first.brand, category: first.category, description: first.description,
                                             sku: variants.map(\.sku).joined(separator: " "), handle: first.handle),
                    priceMinCents: variants.map(\.priceCents).min() ?? first.priceCents,
                    priceMaxCents: variants.map(\.priceCents).max() ?? first.priceCents,
                    inStock: variants.contains(where: \.inStock))
                products.append((entry, variants.map { ($0.priceCents, $0.inStock) }))
            }
        }
        return SearchScanIndex(products: products)
    }

    /// `SearchIndexReads.searchCandidates`.
    func candidates(lookups: [SearchQueryPlan.WordLookup], filters: ProductSearchFilters, limit: Int) -> [Int64] {
        Array(matching(lookups: lookups, filters: filters).prefix(max(limit, 0)).map(\.entry.seq))
    }

    /// `SearchIndexReads.searchCandidateCount`.
    func count(lookups: [SearchQueryPlan.WordLookup], filters: ProductSearchFilters) -> Int {
        matching(lookups: lookups, filters: filters).count
    }

    /// `SearchIndexReads.searchEntries`.
    func entries(seqs: [Int64]) -> [SearchEntry] {
        var bySeq: [Int64: SearchEntry] = [:]
        for item in items { bySeq[item.entry.seq] = item.entry }
        return seqs.compactMap { bySeq[$0] }
    }

    private func matching(lookups: [SearchQueryPlan.WordLookup], filters: ProductSearchFilters) -> [Item] {
        items.filter { item in
            filters.admits(category: item.entry.first.category, brand: item.entry.first.brand, variants: item.variants)
                && lookups.allSatisfy { SearchIndexTerms.satisfies($0, terms: item.terms) }
        }
    }
}
