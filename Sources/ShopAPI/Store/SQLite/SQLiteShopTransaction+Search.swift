// MARK: - Search reads (SearchIndexReads)

/// `SearchIndexReads` on SQLite: the vocabulary from `search_vocabulary`, candidates from
/// `product_words` (`.fullText`) or from `search_documents` checked here (`.scan`, the same
/// products), filters in SQL, entries from `products` (`SQLiteSearchIndex`).
extension SQLiteShopTransaction {
    /// Words read per statement while enumerating the vocabulary.
    static let vocabularyBatch = 256

    func enumerateWords(from lowerBound: String, to upperBound: String?, _ body: (String) throws -> Bool) throws {
        var after: String?
        while true {
            // Plain range conditions only: SQLite seeks the primary key to the lower bound and
            // stops at the upper one; an `?1 IS NULL OR …` term would make it scan the table.
            var sql = "SELECT word FROM search_vocabulary WHERE " + (after == nil ? "word >= ?" : "word > ?")
            var arguments: [any SQLiteBindable] = [after ?? lowerBound]
            if let upperBound {
                sql += " AND word < ?"
                arguments.append(upperBound)
            }
            let words = try query(sql + " ORDER BY word LIMIT ?", arguments + [Self.vocabularyBatch]) { $0.text(0) }
            for word in words where try !body(word) { return }
            guard words.count == Self.vocabularyBatch, let last = words.last else { return }
            after = last
        }
    }

    func documentFrequency(of word: String) throws -> Int {
        try query("SELECT products FROM search_vocabulary WHERE word = ?1", [word]) { $0.int(0) }.first ?? 0
    }

    func searchCandidates(lookups: [SearchQueryPlan.WordLookup], filters: ProductSearchFilters, limit: Int) throws -> [Int64] {
        guard limit > 0 else { return [] }
        if searchMode == .scan && !lookups.isEmpty {
            var found: [Int64] = []
            try scanCandidates(lookups: lookups, filters: filters) { seq in
                found.append(seq)
                return found.count < limit
            }
            return found
        }
        let (sql, arguments) = candidateQuery(lookups: lookups, filters: filters, select: lookups.isEmpty ? "p.seq" : "w.rowid")
        // FTS5 gives a match's rowids in ascending order: ordering by rowid needs no sort.
        return try query(sql + (lookups.isEmpty ? " ORDER BY p.seq" : " ORDER BY w.rowid") + " LIMIT ?", arguments + [limit]) { $0.int64(0) }
    }

    func searchCandidateCount(lookups: [SearchQueryPlan.WordLookup], filters: ProductSearchFilters, atMost limit: Int) throws -> Int {
        guard limit > 0 else { return 0 }
        if searchMode == .scan && !lookups.isEmpty {
            var count = 0
            try scanCandidates(lookups: lookups, filters: filters) { _ in
                count += 1
                return count < limit
            }
            return count
        }
        let (sql, arguments) = candidateQuery(lookups: lookups, filters: filters, select: "1")
        return try query("SELECT count(*) FROM (" + sql + " LIMIT ?)", arguments + [limit]) { $0.int(0) }.first ?? 0
    }

    /// The entries' first variants in one statement, then every live variant of them in another.
    func searchEntries(seqs: [Int64]) throws -> [SearchEntry] {
        guard !seqs.isEmpty else { return [] }
        let firsts = try query(
            """
            SELECT p.seq, \(ShopRows.productColumns) FROM json_each(?1) j JOIN products p INDEXED BY products_by_seq ON p.seq = j.value
            WHERE p.archived = 0 AND p.seq = p.product_seq ORDER BY j.key
            """, ["[" + seqs.map(String.init).joined(separator: ",") + "]"]
        ) { row in (seq: row.int64(0), product: ShopRows.product(ShopRows.Offset(row, by: 1))) }
        let variants = try variantChoices(handles: firsts.map(\.product.handle))
        return firsts.map { first in
            let choices = variants[first.product.handle] ?? []
            let product = first.product
            return SearchEntry(
                seq: first.seq, first: product,
                document: SearchDocument(name: product.name, brand: product.brand, category: product.category, description: product.description,
                                         sku: choices.isEmpty ? product.sku : choices.map(\.sku).joined(separator: " "), handle: product.handle),
                priceMinCents: choices.map(\.priceCents).min() ?? product.priceCents,
                priceMaxCents: choices.map(\.priceCents).max() ?? product.priceCents,
                inStock: choices.contains(where: \.inStock))
        }
    }

    // MARK: - Building the queries

    /// `SELECT <select>` of the live first variants `p` passing `filters` and, with lookups and
    /// FTS5, matching `product_words`; with its arguments (`?` placeholders, in order).
    private func candidateQuery(lookups: [SearchQueryPlan.WordLookup], filters: ProductSearchFilters,
                                select: String) -> (sql: String, arguments: [any SQLiteBindable]) {
        var sql: String
        var arguments: [any SQLiteBindable] = []
        if lookups.isEmpty {
            sql = "SELECT \(select) FROM products p INDEXED BY products_by_seq WHERE p.archived = 0 AND p.seq = p.product_seq"
        } else if filters.isEmpty {
            // `product_words` holds live products only, under `rowid = product_seq`: without
            // filters the index alone answers, with no row of `products` read.
            sql = "SELECT \(select) FROM product_words w WHERE product_words MATCH ?"
            arguments.append(SQLiteSearchIndex.fullTextQuery(lookups: lookups))
        } else {
            sql = """
                SELECT \(select) FROM product_words w JOIN products p INDEXED BY products_by_seq ON p.seq = w.rowid
                WHERE product_words MATCH ? AND p.archived = 0 AND p.seq = p.product_seq
                """
            arguments.append(SQLiteSearchIndex.fullTextQuery(lookups: lookups))
        }
        let filter = Self.filterClause(filters)
        return (sql + filter.sql, arguments + filter.arguments)
    }

    /// `AND …` conditions on `p` (a live first variant) for `filters`, with their arguments.
    static func filterClause(_ filters: ProductSearchFilters) -> (sql: String, arguments: [any SQLiteBindable]) {
        var sql = ""
        var arguments: [any SQLiteBindable] = []
        if !filters.categories.isEmpty {
            sql += " AND p.category IN (SELECT value FROM json_each(?))"
            arguments.append(ShopRows.jsonArray(filters.categories))
        }
        if !filters.brands.isEmpty {
            sql += " AND p.brand IN (SELECT value FROM json_each(?))"
            arguments.append(ShopRows.jsonArray(filters.brands))
        }
        if filters.priceMinCents != nil || filters.priceMaxCents != nil {
            // `p` is the first variant; the index holds every other (`SQLiteProductHandle`).
            sql += """
                 AND (p.price_cents BETWEEN ? AND ? OR EXISTS (SELECT 1 FROM products v INDEXED BY products_by_handle
                 WHERE v.handle = p.handle AND \(SQLiteProductHandle.indexedRows("v.")) AND v.archived = 0 AND v.price_cents BETWEEN ? AND ?))
                """
            let bounds: [any SQLiteBindable] = [filters.priceMinCents ?? Int.min, filters.priceMaxCents ?? Int.max]
            arguments += bounds + bounds
        }
        if let inStock = filters.inStock {
            sql += """
                 AND \(inStock ? "" : "NOT ")(EXISTS (SELECT 1 FROM stock s WHERE s.sku = p.sku AND s.available > 0)
                 OR EXISTS (SELECT 1 FROM products v INDEXED BY products_by_handle JOIN stock s ON s.sku = v.sku
                 WHERE v.handle = p.handle AND \(SQLiteProductHandle.indexedRows("v.")) AND v.archived = 0 AND s.available > 0))
                """
        }
        return (sql, arguments)
    }

    /// `.scan`: calls `body` with each live product passing `filters` whose stored words satisfy
    /// every lookup, in catalog order, until it returns false.
    private func scanCandidates(lookups: [SearchQueryPlan.WordLookup], filters: ProductSearchFilters,
                                _ body: (Int64) throws -> Bool) throws {
        let filter = Self.filterClause(filters)
        try checkInterruption()
        do {
            try connection.forEachRow(
            """
            SELECT p.seq, d.words FROM search_documents d JOIN products p INDEXED BY products_by_seq ON p.seq = d.product_seq
            WHERE p.archived = 0 AND p.seq = p.product_seq\(filter.sql) ORDER BY d.product_seq
            """, filter.arguments
            ) { row in
                let terms = Set(SQLiteSearchIndex.terms(ofWords: row.text(1)).split(separator: " ").map(String.init))
                if lookups.allSatisfy({ SearchIndexTerms.satisfies($0, terms: terms) }), try !body(row.int64(0)) {
                    throw ScanStop()
                }
            }
        } catch is ScanStop {}
    }

    /// Ends a scan early (`body` had enough).
    private struct ScanStop: Error {}
}
