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
            let page = try query(
                "SELECT word FROM search_word_counts WHERE \(bound.0) AND ($2::text IS NULL OR word < $2) ORDER BY word LIMIT $3",
                [bound.1, upperBound, Self.vocabularyPageSize]
            ) { $0.text(0) }
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
        let (sql, arguments) = candidatesQuery(lookups: lookups, filters: filters)
        return try query("\(sql) ORDER BY p.seq LIMIT $\(arguments.count + 1)", arguments + [limit], prepared: false) { $0.int64(0) }
    }

    func searchCandidateCount(lookups: [SearchQueryPlan.WordLookup], filters: ProductSearchFilters, atMost limit: Int) throws -> Int {
        guard limit > 0 else { return 0 }
        let (sql, arguments) = candidatesQuery(lookups: lookups, filters: filters)
        return try query("SELECT count(*) FROM (\(sql) LIMIT $\(arguments.count + 1)) c", arguments + [limit], prepared: false) { $0.int(0) }.first ?? 0
    }

    /// `SELECT p.seq FROM …` of the live products' first variants that match `lookups` (through
    /// the GIN index first, so the words decide the plan) and pass `filters`, unordered.
    private func candidatesQuery(lookups: [SearchQueryPlan.WordLookup], filters: ProductSearchFilters) -> (String, [any PostgreSQLValue]) {
        var arguments: [any PostgreSQLValue] = []
        func parameter(_ value: any PostgreSQLValue) -> String {
            arguments.append(value)
            return "$\(arguments.count)"
        }
        var sql: String
        var conditions = ["NOT p.archived", "p.seq = p.product_seq"]
        if let tsquery = PostgreSQLSearchTerms.tsquery(lookups) {
            sql = """
                WITH matched AS MATERIALIZED (
                    SELECT seq FROM products WHERE NOT archived AND search_words @@ \(parameter(tsquery))::tsquery
                ) SELECT p.seq FROM matched m JOIN products p ON p.seq = m.seq
                """
        } else {
            sql = "SELECT p.seq FROM products p"
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
