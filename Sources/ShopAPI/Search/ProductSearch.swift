/// One `catalog.search` inside one read transaction, the same for every store: the query is
/// resolved against the store's live vocabulary (`SearchQueryPlan`), the store gives the
/// candidates of the plan's required words that pass the filters (`SearchIndexReads`), the core
/// matches and ranks them (`SearchOutcome`, dropping words from the end while all of them find
/// fewer than `minimumMatches`, after the words no product can match), then they are sorted,
/// counted by facet, paged at an offset, and their variants and highlights added.
///
/// Rules:
/// - an empty query (only white space) browses: every live product passing the filters, in the
///   sort's order (relevance is catalog order); a query with text but no words finds nothing;
/// - sorts other than relevance order by their field and break ties by relevance (browsing: by
///   catalog position); `name` compares names lowercased with accents removed (`SearchFolding`);
/// - when more than `rankingWindow` products have the words, the ranked ones are the first
///   `rankingWindow` in catalog order of those whose *name* has every required word (name terms,
///   `SearchIndexTerms`), and the first `rankingWindow` of all: at most twice `rankingWindow`,
///   whatever the catalog's size (Meilisearch likewise ranks and pages through at most 1 000 hits,
///   `maxTotalHits`). Then `totalIsEstimate` is set, `total` is the store's count of them up to
///   `maxCounted` (`searchCandidateCount`, which may count a candidate the matcher would reject,
///   such as a product having the stem key as a different word), and paging, facets and sorting cover the
///   ranked ones only. Otherwise `total`, facets and pages cover exactly the matches. A browse
///   ranks the first `2 × rankingWindow` products in catalog order, under the same rule;
/// - facets count every ranked match (most first, then by value in code point order).
///
/// Pure given the transaction; used only on the transaction's thread.
enum ProductSearch {
    /// How many candidates of each kind one plan ranks (see the rules above). Reading and
    /// matching one costs about 50 µs, so a broad word costs at most about 50 ms whatever the
    /// catalog's size; every match of a query with up to this many is ranked.
    static let rankingWindow = 500
    /// While fewer products than this have every required word, words are left out from the
    /// end (`SearchOutcome`): a first page's worth (`ShopLimits.defaultSearchPageSize`), as
    /// Meilisearch's `matchingStrategy: last` fills the page it was asked for. The products with
    /// more of the words still come first (`SearchRankingKey.matchedWords`).
    static let minimumMatches = ShopLimits.defaultSearchPageSize
    /// Most products `total` counts when it is an estimate, as Elasticsearch counts hits exactly
    /// up to 10 000 by default (`track_total_hits`): at a million products, counting a hundred
    /// thousand costs about 10 ms for one word and 20–35 ms for two (FTS5 intersects their
    /// lists), ten thousand 1–7 ms.
    static let maxCounted = 10_000

    /// The page of `request` starting `offset` matches in, `pageSize` long, with the owner's
    /// `synonyms` applied to the query.
    static func page(for request: ProductSearchRequest, offset: Int, pageSize: Int, synonyms: SearchSynonymIndex = .none,
                     in transaction: any ShopReadTransaction) throws -> ProductSearchPage {
        let isBrowse = request.query.unicodeScalars.allSatisfy(\.properties.isWhitespace)
        let query = SearchQuery(request.query)
        var found = Found(matches: [], total: 0)
        if isBrowse, request.sort == .relevance, request.facets.isEmpty {
            return try browsePage(request.filters, offset: offset, pageSize: pageSize, in: transaction)
        }
        if isBrowse {
            found = try browse(request.filters, in: transaction)
        } else if !query.words.isEmpty {
            found = try search(query, filters: request.filters, synonyms: synonyms, in: transaction)
        }
        let sorted = sort(found.matches, by: request.sort)
        let start = min(offset, sorted.count)
        let end = min(start + pageSize, sorted.count)
        let items = try self.items(of: sorted[start..<end], highlighting: request.highlights ? found.plan : nil, in: transaction)
        let corrections = found.outcome?.corrections ?? []
        return ProductSearchPage(
            items: items, total: found.total, totalIsEstimate: found.totalIsEstimate ? true : nil,
            nextCursor: end < sorted.count ? PageCursor.search(offset: end) : nil,
            readAs: corrections.isEmpty ? nil : found.outcome?.readAs,
            corrections: corrections.isEmpty ? nil : corrections.map { SearchWordCorrection(word: $0.word, readAs: $0.readAs) },
            droppedWords: (found.outcome?.droppedWords).flatMap { $0.isEmpty ? nil : $0 },
            facets: request.facets.isEmpty ? nil : facetCounts(request.facets, of: found.matches))
    }

    /// The entries of `matches`, in order, each with its variants (read in one statement) and,
    /// with a `plan`, its highlights.
    private static func items(of matches: ArraySlice<Match>, highlighting plan: SearchQueryPlan?,
                              in transaction: any ShopReadTransaction) throws -> [CatalogItem] {
        let choices = try matches.isEmpty ? [:] : transaction.variantChoices(handles: matches.map(\.entry.first.handle))
        return matches.map { match in
            let first = match.entry.first
            // The variants' statement sees the same snapshot, so it finds them; the first
            // variant as the only choice stands in should it not.
            let item = CatalogItem(first: first, variants: choices[first.handle] ?? [
                VariantChoice(sku: first.sku, options: first.options, priceCents: first.priceCents, inStock: match.entry.inStock),
            ])
            guard let plan else { return item }
            return item.highlighted(highlights(of: match.entry, plan: plan))
        }
    }

    /// A browse in catalog order without facets: only the page's products are read (the
    /// positions before it are skipped in the store's index), so any page of any catalog costs a
    /// page, and every product is reachable; `total` is the store's count.
    private static func browsePage(_ filters: ProductSearchFilters, offset: Int, pageSize: Int,
                                   in transaction: any ShopReadTransaction) throws -> ProductSearchPage {
        // `offset` is at most a billion (`PageCursor.searchOffset`): no overflow.
        let seqs = try transaction.searchCandidates(lookups: [], filters: filters, limit: offset + pageSize + 1)
        let pageSeqs = Array(seqs.dropFirst(offset).prefix(pageSize))
        let entries = try transaction.searchEntries(seqs: pageSeqs)
        let items = try self.items(of: ArraySlice(entries.map { Match(entry: $0, key: nil) }), highlighting: nil, in: transaction)
        let total = seqs.count <= offset + pageSize ? seqs.count : try transaction.searchCandidateCount(lookups: [], filters: filters)
        return ProductSearchPage(items: items, total: total,
                                 nextCursor: seqs.count > offset + pageSize ? PageCursor.search(offset: offset + pageSize) : nil)
    }

    // MARK: - Finding

    /// A matching product with its ranking key (nil when browsing).
    struct Match {
        var entry: SearchEntry
        var key: SearchRankingKey?
    }

    private struct Found {
        var matches: [Match]
        var total: Int
        var totalIsEstimate = false
        var plan: SearchQueryPlan?
        var outcome: SearchOutcome?
    }

    private static func browse(_ filters: ProductSearchFilters, in transaction: any ShopReadTransaction) throws -> Found {
        let window = 2 * rankingWindow
        let seqs = try transaction.searchCandidates(lookups: [], filters: filters, limit: window + 1)
        let entries = try transaction.searchEntries(seqs: Array(seqs.prefix(window)))
        guard seqs.count > window else { return Found(matches: entries.map { Match(entry: $0, key: nil) }, total: entries.count) }
        return Found(matches: entries.map { Match(entry: $0, key: nil) },
                     total: try transaction.searchCandidateCount(lookups: [], filters: filters, atMost: maxCounted), totalIsEstimate: true)
    }

    private static func search(_ query: SearchQuery, filters: ProductSearchFilters, synonyms: SearchSynonymIndex,
                               in transaction: any ShopReadTransaction) throws -> Found {
        var plan = try SearchQueryPlan(query: query, vocabulary: transaction, synonyms: synonyms)
        // A word no product can match (no product has it, nor its plural, a typo, a prefix, a split
        // or a synonym of it) is left out first: with it every search finds nothing, and leaving
        // words out from the end would leave out the words before it too.
        for index in plan.query.requiredWords where plan.documentFrequencies[index] == 0 {
            let found = try transaction.searchCandidates(lookups: [plan.lookup(forWord: index)], filters: ProductSearchFilters(), limit: 1)
            if found.isEmpty, let relaxed = plan.droppingWord(index) { plan = relaxed }
        }
        var entries: [Int64: SearchEntry] = [:]
        // Per plan tried (each leaves out more words): whether it had more candidates than it ranked.
        var boundedByDropped: [[String]: Bool] = [:]
        // The candidates of the plan tried before (it found fewer than `minimumMatches`, each of
        // them a candidate of the next plan too): ranked again with the next plan's, so that a
        // product with every word (an exact SKU) stays on top when leaving a word out matches
        // more products than are ranked.
        var stricterSeqs: [Int64] = []
        let outcome = try SearchOutcome.search(plan, minimumMatches: minimumMatches) { plan in
            let lookups = plan.query.requiredWords.map(plan.lookup(forWord:))
            var seqs = try transaction.searchCandidates(lookups: lookups, filters: filters, limit: rankingWindow + 1)
            let bounded = seqs.count > rankingWindow
            boundedByDropped[plan.query.droppedWords] = bounded
            if bounded {
                let named = try transaction.searchCandidates(lookups: lookups.map(SearchIndexTerms.nameLookup), filters: filters,
                                                             limit: rankingWindow)
                seqs = Array(Set(named).union(seqs.prefix(rankingWindow)).union(stricterSeqs)).sorted()
            }
            stricterSeqs = seqs
            let found = try transaction.searchEntries(seqs: seqs)
            for entry in found { entries[entry.seq] = entry }
            return found.map { SearchDocumentMatcher.facts(of: $0.document, catalogPosition: Int($0.seq), plan: plan) }
        }
        let matches = outcome.ranked.compactMap { ranked in
            entries[Int64(ranked.facts.catalogPosition)].map { Match(entry: $0, key: ranked.key) }
        }
        var total = matches.count
        let bounded = boundedByDropped[outcome.plan.query.droppedWords] ?? false
        if bounded {
            let lookups = outcome.plan.query.requiredWords.map(outcome.plan.lookup(forWord:))
            total = max(total, try transaction.searchCandidateCount(lookups: lookups, filters: filters, atMost: maxCounted))
        }
        return Found(matches: matches, total: total, totalIsEstimate: bounded, plan: outcome.plan, outcome: outcome)
    }

    // MARK: - Ordering

    /// `matches` (ranked best first, or in catalog order when browsing) in `sort`'s order.
    static func sort(_ matches: [Match], by sort: ProductSearchSort) -> [Match] {
        func relevanceFirst(_ a: Match, _ b: Match) -> Bool {
            if let keyA = a.key, let keyB = b.key { return keyA < keyB }
            return a.entry.seq < b.entry.seq
        }
        switch sort {
        case .relevance:
            return matches.sorted(by: relevanceFirst)
        case .priceAscending:
            return matches.sorted { a, b in
                a.entry.priceMinCents != b.entry.priceMinCents ? a.entry.priceMinCents < b.entry.priceMinCents : relevanceFirst(a, b)
            }
        case .priceDescending:
            return matches.sorted { a, b in
                a.entry.priceMaxCents != b.entry.priceMaxCents ? a.entry.priceMaxCents > b.entry.priceMaxCents : relevanceFirst(a, b)
            }
        case .newest:
            return matches.sorted { a, b in a.entry.seq != b.entry.seq ? a.entry.seq > b.entry.seq : relevanceFirst(a, b) }
        case .name:
            let keyed = matches.map { (match: $0, name: foldedName($0.entry.first.name)) }
            return keyed.sorted { a, b in
                a.name != b.name ? a.name.lexicographicallyPrecedes(b.name) : relevanceFirst(a.match, b.match)
            }.map(\.match)
        }
    }

    /// `name` lowercased with Latin accents removed, as scalar values to compare.
    static func foldedName(_ name: String) -> [UInt32] {
        name.lowercased().unicodeScalars.map { SearchFolding.folded($0).value }
    }

    // MARK: - Facets and highlights

    static func facetCounts(_ fields: [ProductFacetField], of matches: [Match]) -> ProductFacetCounts {
        func counts(_ value: (SearchEntry) -> String) -> [FacetValueCount] {
            var counts: [String: Int] = [:]
            for match in matches { counts[value(match.entry), default: 0] += 1 }
            return counts.map { FacetValueCount(value: $0.key, count: $0.value) }.sorted { a, b in
                a.count != b.count ? a.count > b.count : SearchWordOrder.precedes(a.value, b.value)
            }
        }
        return ProductFacetCounts(category: fields.contains(.category) ? counts(\.first.category) : nil,
                                  brand: fields.contains(.brand) ? counts(\.first.brand) : nil)
    }

    private static func highlights(of entry: SearchEntry, plan: SearchQueryPlan?) -> CatalogItemHighlights {
        guard let plan else { return CatalogItemHighlights(name: [], description: []) }
        func ranges(_ text: String, _ field: SearchField) -> [TextRange] {
            SearchHighlighter.ranges(in: text, field: field, plan: plan).map { TextRange(start: $0.lowerBound, end: $0.upperBound) }
        }
        return CatalogItemHighlights(name: ranges(entry.first.name, .name), description: ranges(entry.first.description, .description))
    }
}
