/// What search reads from PostgreSQL (`SearchIndexReads`), from the index `PostgreSQLSearchIndex`
/// keeps exact: the vocabulary from `search_word_counts` (its primary key, in byte order), the
/// candidates from the GIN index of `products.search_words` (live products only), filtered in
/// the same statement, and the entries from the products' variants.
extension PostgreSQLShopTransaction: SearchIndexReads {
    /// Words read from the vocabulary per query while enumerating.
    static let vocabularyPageSize = 256

    // MARK: - SearchVocabulary

    func enumerateWords(from lowerBound: String, to upperBound: String?, _ body: (String) throws -> Bool) throws {
        var after: String?
        while true {
            let bound = after.map { ("word > $1", $0) } ?? ("word >= $1", lowerBound)
            // Two statements, not `($2 IS NULL OR word < $2)`: with that filter a prepared plan
            // reads on past the upper bound to the end of the index (millions of words) for a
            // range that holds fewer words than the page.
            let page = try upperBound.map { upperBound in
                try query("SELECT word FROM search_word_counts WHERE \(bound.0) AND word < $2 ORDER BY word LIMIT $3",
                          [bound.1, upperBound, Self.vocabularyPageSize]) { $0.text(0) }
            } ?? query("SELECT word FROM search_word_counts WHERE \(bound.0) ORDER BY word LIMIT $2",
                       [bound.1, Self.vocabularyPageSize]) { $0.text(0) }
            for word in page where try !body(word) { return }
            guard page.count == Self.vocabularyPageSize, let last = page.last else { return }
            after = last
        }
    }

    func documentFrequency(of word: String) throws -> Int {
        try query("SELECT products FROM search_word_counts WHERE word = $1", [PostgreSQLSearchTerms.indexed(word)]) { $0.int(0) }.first ?? 0
    }

    // MARK: - Candidates

    func searchCandidates(lookups: [SearchQueryPlan.WordLookup], filters: ProductSearchFilters, limit: Int) throws -> [Int64] {
        guard limit > 0 else { return [] }
        // Words many products have: their first `limit` matches lie among the first products in
        // catalog order, and testing those one by one costs a fraction of the GIN index's every
        // match (hundreds of thousands of rows to visit at a million products, for seconds).
        if var window = try leadingWindow(lookups: lookups, limit: limit) {
            while true {
                let (sql, arguments) = candidatesQuery(lookups: lookups, filters: filters, from: .leading(window: window))
                let leading = try query("\(sql) ORDER BY p.seq LIMIT $\(arguments.count + 1)", arguments + [limit], prepared: false) { $0.int64(0) }
                // Every match past the window comes after these in catalog order.
                if leading.count == limit { return leading }
                // Fewer than the counts predicted (a name term counted as its word): again, with
                // a window sized by what this one found, while that is not too large.
                let largest = Self.largestLeadingWindow(limit: limit)
                guard Double(window) < largest else { break }
                // None found: sixteen times as many (a window of a few products for one match).
                let needed = leading.isEmpty ? 16 * Double(window) : 2 * Double(limit) * Double(window) / Double(leading.count)
                guard leading.isEmpty || needed <= largest else { break }
                window = Int(min(max(needed, 2 * Double(window)), largest))
            }
        }
        let (sql, arguments) = candidatesQuery(lookups: lookups, filters: filters)
        return try query("\(sql) ORDER BY p.seq LIMIT $\(arguments.count + 1)", arguments + [limit], prepared: false) { $0.int64(0) }
    }

    /// How many of the first live products in catalog order to test for `limit` matches of
    /// `lookups` (the scan stops at the `limit`th match, so a window larger than needed costs
    /// nothing), or nil when the words look too rare for that to be cheaper than the GIN index:
    /// four times what the vocabulary's counts predict (each lookup's words' products, summed,
    /// the lookups taken as independent), or the largest window, `maxLeadingWindowFactor ×
    /// limit`, when a lookup is a prefix of too many words to count (a short, common prefix).
    private func leadingWindow(lookups: [SearchQueryPlan.WordLookup], limit: Int) throws -> Int? {
        guard !lookups.isEmpty else { return nil }
        let products = try liveProductEstimate()
        var share = 1.0
        var uncounted = false
        for lookup in lookups {
            if lookup.prefix != nil && lookup.prefixWords == nil {
                uncounted = true
                continue
            }
            // A name term (`^word`) is counted as its word: the products having it anywhere.
            let words = Array(Set((lookup.words + (lookup.prefixWords ?? [])).map(SearchIndexTerms.unmarked))).map(PostgreSQLSearchTerms.indexed)
            let having = try query("SELECT coalesce(sum(products), 0) FROM search_word_counts WHERE word = ANY($1::text[])",
                                   [PostgreSQLTextArray(words)]) { $0.int(0) }.first ?? 0
            share *= min(1, Double(having) / Double(products))
        }
        // In doubles: a count without a limit asks for `Int.max`, which no window serves.
        let window = 4 * Double(limit) / max(share, 1e-9)
        let largest = Self.largestLeadingWindow(limit: limit)
        guard window <= largest, largest <= Double(Self.maxLeadingWindow) else { return nil }
        return uncounted ? Int(largest) : max(limit, Int(window))
    }

    /// The largest leading window for `limit` matches: `maxLeadingWindowFactor × limit`, at
    /// least 16 384 products (a few milliseconds, when a search only asks whether any matches).
    private static func largestLeadingWindow(limit: Int) -> Double {
        max(Double(maxLeadingWindowFactor) * Double(limit), 16_384)
    }

    /// The largest leading window, in multiples of the candidates asked for: testing 128 000
    /// products for 500 matches that are not there costs about 40 ms at a million products.
    static let maxLeadingWindowFactor = 256
    /// The largest leading window at all: beyond it the GIN index is the cheaper read.
    static let maxLeadingWindow = 4_000_000

    /// About how many products the store has (the planner's row count of `products`, variants
    /// and archived ones included, at least 1; 1 before the table was first analysed): only to
    /// size `leadingWindow`, which an overestimate makes larger.
    private func liveProductEstimate() throws -> Int {
        try query("SELECT greatest(reltuples, 1)::bigint FROM pg_class WHERE oid = 'products'::regclass", []) { $0.int(0) }.first ?? 1
    }

    func searchCandidateCount(lookups: [SearchQueryPlan.WordLookup], filters: ProductSearchFilters, atMost limit: Int) throws -> Int {
        guard limit > 0 else { return 0 }
        // As `searchCandidates`: common words are counted in catalog order, up to `limit`.
        if let window = try leadingWindow(lookups: lookups, limit: limit) {
            let (sql, arguments) = candidatesQuery(lookups: lookups, filters: filters, from: .leading(window: window))
            let count = try query("SELECT count(*) FROM (\(sql) LIMIT $\(arguments.count + 1)) c", arguments + [limit], prepared: false) {
                $0.int(0)
            }.first ?? 0
            if count == limit { return count }
        }
        // PostgreSQL reads a WITH query only as far as the statement needs it: the count stops
        // reading matches at `limit`.
        let (sql, arguments) = candidatesQuery(lookups: lookups, filters: filters)
        return try query("SELECT count(*) FROM (\(sql) LIMIT $\(arguments.count + 1)) c", arguments + [limit], prepared: false) { $0.int(0) }.first ?? 0
    }

    /// Where `candidatesQuery` takes the products it tests from.
    private enum CandidateSource {
        /// The matches the GIN index gives, first: the words decide the plan (for `ORDER BY seq
        /// LIMIT n` the planner may otherwise walk catalog order testing every product, for a
        /// rare word every product of the store).
        case everyMatch
        /// The first `window` live products in catalog order, each tested.
        case leading(window: Int)
    }

    /// `SELECT p.seq FROM …` of the live products' first variants that match `lookups` (taken
    /// `from` where it says) and pass `filters`, unordered.
    private func candidatesQuery(lookups: [SearchQueryPlan.WordLookup], filters: ProductSearchFilters,
                                 from source: CandidateSource = .everyMatch) -> (String, [any PostgreSQLValue]) {
        var arguments: [any PostgreSQLValue] = []
        func parameter(_ value: any PostgreSQLValue) -> String {
            arguments.append(value)
            return "$\(arguments.count)"
        }
        // Neither form joins the rows found to `products` again: the planner cannot estimate
        // `seq = product_seq` (it takes 0.5 % of the rows) and would hash-join every product.
        var sql: String
        var conditions = ["p.seq = p.product_seq"]
        let columns = "seq, product_seq, category, brand, handle"
        if let tsquery = PostgreSQLSearchTerms.tsquery(lookups) {
            switch source {
            case let .leading(window):
                sql = """
                    SELECT p.seq FROM (
                        SELECT \(columns), search_words FROM products WHERE NOT archived AND seq = product_seq
                        ORDER BY seq LIMIT \(parameter(window))
                    ) p
                    """
                conditions.append("p.search_words @@ \(parameter(tsquery))::tsquery")
            case .everyMatch:
                sql = """
                    WITH matched AS MATERIALIZED (
                        SELECT \(columns) FROM products WHERE NOT archived AND search_words @@ \(parameter(tsquery))::tsquery
                    ) SELECT p.seq FROM matched p
                    """
            }
        } else {
            sql = "SELECT p.seq FROM products p"
            conditions.insert("NOT p.archived", at: 0)
        }
        if !filters.categories.isEmpty { conditions.append("p.category = ANY(\(parameter(PostgreSQLTextArray(filters.categories)))::text[])") }
        if !filters.brands.isEmpty { conditions.append("p.brand = ANY(\(parameter(PostgreSQLTextArray(filters.brands)))::text[])") }
        if filters.priceMinCents != nil || filters.priceMaxCents != nil {
            var price: [String] = []
            if let minimum = filters.priceMinCents { price.append("v.price_cents >= \(parameter(minimum))") }
            if let maximum = filters.priceMaxCents { price.append("v.price_cents <= \(parameter(maximum))") }
            conditions.append("EXISTS (SELECT 1 FROM products v WHERE v.handle = p.handle AND \(price.joined(separator: " AND ")))")
        }
        if let inStock = filters.inStock {
            let someInStock = "EXISTS (SELECT 1 FROM products v JOIN stock s ON s.sku = v.sku WHERE v.handle = p.handle AND s.available > 0)"
            conditions.append(inStock ? someInStock : "NOT " + someInStock)
        }
        sql += " WHERE " + conditions.joined(separator: " AND ")
        return (sql, arguments)
    }

    // MARK: - Entries

    func searchEntries(seqs: [Int64]) throws -> [SearchEntry] {
        guard !seqs.isEmpty else { return [] }
        let n = ShopRows.productColumnCount
        let rows = try query(
            """
            SELECT p.seq, \(ShopRows.productColumns), v.skus, v.price_min, v.price_max, v.in_stock
            FROM products p CROSS JOIN LATERAL (
                SELECT string_agg(x.sku, ' ' ORDER BY x.seq) AS skus, min(x.price_cents) AS price_min, max(x.price_cents) AS price_max,
                       bool_or(coalesce(s.available, 0) > 0) AS in_stock
                FROM products x LEFT JOIN stock s ON s.sku = x.sku WHERE x.handle = p.handle
            ) v
            WHERE p.seq = ANY($1::bigint[]) AND p.seq = p.product_seq AND NOT p.archived
            """,
            [PostgreSQLTextArray(raw: "{" + seqs.map(String.init).joined(separator: ",") + "}")]
        ) { row -> SearchEntry in
            let first = ShopRows.product(ShopRows.Offset(row, by: 1))
            return SearchEntry(seq: row.int64(0), first: first, document: PostgreSQLSearchIndex.document(of: first, skus: row.text(n + 1)),
                               priceMinCents: row.int(n + 2), priceMaxCents: row.int(n + 3), inStock: row.text(n + 4) == "t")
        }
        var bySeq: [Int64: SearchEntry] = [:]
        for entry in rows { bySeq[entry.seq] = entry }
        return seqs.compactMap { bySeq[$0] }
    }
}
