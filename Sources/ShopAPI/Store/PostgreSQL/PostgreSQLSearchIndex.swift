/// Keeps PostgreSQL's search index exact inside a writing transaction: `products.search_words`
/// (a first variant's lexemes, `PostgreSQLSearchTerms`, under the GIN index
/// `products_search_words` of live products) and `search_word_counts` (each word of the live
/// products with the number of them that have it; no row for a word none has).
///
/// Changes are gathered as word deltas in the temporary table `search_word_deltas` (from Swift
/// for products whose words it computes, from SQL for words leaving with a product) and applied
/// by `applyDeltas` in one set-wise statement, in word order. Which products an import indexes
/// again (`rebuild`) is gathered in `search_reindex`. One thread: the caller's, holding the connection,
/// inside its transaction (the temporary tables go with it).
struct PostgreSQLSearchIndex {
    /// Products read back per query by `rebuild`.
    static let rebuildPageSize = 2000
    /// Distinct words counted in Swift before they are copied out to `search_word_deltas`.
    static let countsToBuffer = 200_000

    let connection: PostgreSQLConnection
    /// +1 per live product for words computed here, not yet copied out.
    private var counts: [String: Int] = [:]

    /// Creates the temporary tables (once per transaction; they are dropped at its end).
    init(connection: PostgreSQLConnection) throws {
        self.connection = connection
        try connection.execute("""
            CREATE TEMPORARY TABLE IF NOT EXISTS search_word_deltas (word TEXT NOT NULL, delta BIGINT NOT NULL) ON COMMIT DROP;
            CREATE TEMPORARY TABLE IF NOT EXISTS search_word_totals (word TEXT NOT NULL, delta BIGINT NOT NULL) ON COMMIT DROP;
            CREATE TEMPORARY TABLE IF NOT EXISTS search_reindex (product_seq BIGINT NOT NULL) ON COMMIT DROP;
            CREATE TEMPORARY TABLE IF NOT EXISTS search_rebuilt (product_seq BIGINT NOT NULL, search_words tsvector NOT NULL) ON COMMIT DROP;
            """)
    }

    /// The text search reads for the product of `variant`: `skus` are its variants' SKUs
    /// separated by single spaces.
    static func document(of variant: Product, skus: String) -> SearchDocument {
        SearchDocument(name: variant.name, brand: variant.brand, category: variant.category,
                       description: variant.description, sku: skus, handle: variant.handle)
    }

    /// Counts `words` once more: a product that has them has become live.
    mutating func countLive(_ words: [String]) throws {
        for word in words { counts[word, default: 0] += 1 }
        if counts.count >= Self.countsToBuffer { try copyCounts() }
    }

    /// The SQL that takes the words of the live products whose `seq` is in `selection` (a
    /// subquery) out of the counts, as rows of `search_word_deltas`: run it before they change
    /// or leave.
    static func subtractingLiveWords(ofProductsIn selection: String) -> String {
        """
        INSERT INTO search_word_deltas (word, delta)
        SELECT l.lexeme, -1 FROM products p, unnest(p.search_words) AS l (lexeme, positions, weights)
        WHERE p.seq IN (\(selection)) AND p.seq = p.product_seq AND NOT p.archived AND \(PostgreSQLSearchTerms.isWord("l.lexeme"))
        """
    }

    /// Before an import changes the products of `import_products` (their fields or status):
    /// queues them to be indexed again, with those a new variant joined (already queued), and
    /// takes the words of the live ones out of the counts as they are now.
    func beforeProductChanges() throws {
        try connection.execute("""
            INSERT INTO search_reindex (product_seq)
                SELECT p.seq FROM products p JOIN (SELECT DISTINCT handle FROM import_products) c ON p.handle = c.handle
                WHERE p.seq = p.product_seq;
            \(Self.subtractingLiveWords(ofProductsIn: "SELECT product_seq FROM search_reindex"));
            """)
    }

    /// After an import has changed the products: indexes the queued ones again, applies the
    /// counts, and moves the new lexemes from the GIN index's pending list into the index itself
    /// (as `PostgreSQLCatalogImport` does for `products_words`).
    mutating func afterProductChanges() throws {
        let queued = try connection.query("SELECT DISTINCT product_seq FROM search_reindex ORDER BY 1", []) { $0.int64(0) }
        try rebuild(queued)
        try connection.execute("TRUNCATE search_reindex")
        try applyDeltas()
        try connection.execute("SELECT gin_clean_pending_list('products_search_words')")
    }

    /// Indexes again the products whose first variants are at `seqs`, from what `products` holds
    /// now, counting the words of those that are live (their earlier words must have been taken
    /// out first: `subtractingLiveWords`). Reads `rebuildPageSize` products per query.
    mutating func rebuild(_ seqs: [Int64]) throws {
        for start in stride(from: 0, to: seqs.count, by: Self.rebuildPageSize) {
            let page = seqs[start..<min(start + Self.rebuildPageSize, seqs.count)]
            let products = try connection.query(
                """
                SELECT p.seq, \(ShopRows.productColumns), NOT p.archived,
                       (SELECT string_agg(v.sku, ' ' ORDER BY v.seq) FROM products v WHERE v.handle = p.handle)
                FROM products p WHERE p.seq = ANY($1::bigint[]) AND p.seq = p.product_seq
                """, [PostgreSQLTextArray(raw: "{" + page.map(String.init).joined(separator: ",") + "}")]
            ) { row in
                (seq: row.int64(0), product: ShopRows.product(ShopRows.Offset(row, by: 1)),
                 live: row.text(ShopRows.productColumnCount + 1) == "t", skus: row.text(ShopRows.productColumnCount + 2))
            }
            var rebuilt = PostgreSQLCopyRows()
            for entry in products {
                let lexemes = PostgreSQLSearchTerms.lexemes(of: Self.document(of: entry.product, skus: entry.skus))
                rebuilt.append(entry.seq)
                rebuilt.append(lexemes.tsvector)
                rebuilt.endRow()
                if entry.live { try countLive(lexemes.words) }
            }
            if !rebuilt.isEmpty {
                try connection.copyIn("COPY search_rebuilt (product_seq, search_words) FROM STDIN", data: rebuilt.bytes)
            }
        }
        try connection.execute("""
            UPDATE products p SET search_words = r.search_words FROM search_rebuilt r WHERE p.seq = r.product_seq;
            TRUNCATE search_rebuilt;
            """)
    }

    /// Applies every delta gathered to `search_word_counts` and removes the words no live
    /// product has any more: the words it has are updated in word order (the order every writer
    /// of the counts locks them in), the new ones inserted in that order, without `ON CONFLICT`'s
    /// speculative insertion per row (a first import of a million products brings millions).
    mutating func applyDeltas() throws {
        try copyCounts()
        try connection.execute("""
            INSERT INTO search_word_totals (word, delta) SELECT word, sum(delta) FROM search_word_deltas GROUP BY word HAVING sum(delta) <> 0;
            WITH locked AS (
                SELECT c.word, t.delta FROM search_word_counts c JOIN search_word_totals t ON t.word = c.word
                ORDER BY c.word FOR UPDATE OF c
            ) UPDATE search_word_counts c SET products = c.products + l.delta FROM locked l WHERE c.word = l.word;
            INSERT INTO search_word_counts (word, products)
                SELECT t.word, t.delta FROM search_word_totals t
                WHERE NOT EXISTS (SELECT 1 FROM search_word_counts c WHERE c.word = t.word) ORDER BY t.word COLLATE "C";
            DELETE FROM search_word_counts c USING search_word_totals t WHERE c.word = t.word AND t.delta < 0 AND c.products = 0;
            TRUNCATE search_word_deltas, search_word_totals;
            """)
    }

    /// Copies the Swift-side counts out to `search_word_deltas`.
    private mutating func copyCounts() throws {
        guard !counts.isEmpty else { return }
        var rows = PostgreSQLCopyRows()
        for (word, count) in counts {
            rows.append(word)
            rows.append(count)
            rows.endRow()
        }
        counts.removeAll(keepingCapacity: true)
        try connection.copyIn("COPY search_word_deltas (word, delta) FROM STDIN", data: rows.bytes)
    }
}
