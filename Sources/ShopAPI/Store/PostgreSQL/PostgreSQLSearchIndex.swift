/// Keeps PostgreSQL's search index exact inside a writing transaction: `products.search_words`
/// (a first variant's lexemes, `PostgreSQLSearchTerms`, under the GIN index
/// `products_search_words` of live products) and `search_word_counts` (each word of the live
/// products with the number of them that have it; no row for a word none has).
///
/// Changes are gathered as word deltas in the temporary table `search_word_deltas` (from Swift
/// for products whose words it computes, from SQL for words leaving with a product) and applied
/// by `applyDeltas` in one set-wise statement, in word order. Which products to index again
/// (`rebuild`) is gathered in `search_reindex`. One thread: the caller's, holding the connection,
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
        WHERE p.seq IN (\(selection)) AND p.seq = p.product_seq AND NOT p.archived AND left(l.lexeme, 1) <> '\(PostgreSQLSearchTerms.stemMarker)'
        """
    }

    /// Indexes again every product whose first variant's `seq` is in `search_reindex`, from
    /// what `products` holds now, counting the words of those that are live (their earlier
    /// words must have been taken out first: `subtractingLiveWords`). Empties `search_reindex`.
    mutating func rebuild() throws {
        var after = Int64.min
        while true {
            let page = try connection.query(
                """
                SELECT p.seq, \(ShopRows.productColumns), NOT p.archived,
                       (SELECT string_agg(v.sku, ' ' ORDER BY v.seq) FROM products v WHERE v.handle = p.handle)
                FROM products p WHERE p.seq IN (SELECT product_seq FROM search_reindex) AND p.seq = p.product_seq AND p.seq > $1
                ORDER BY p.seq LIMIT $2
                """, [after, Self.rebuildPageSize]
            ) { row in
                (seq: row.int64(0), product: ShopRows.product(ShopRows.Offset(row, by: 1)),
                 live: row.text(ShopRows.productColumnCount + 1) == "t", skus: row.text(ShopRows.productColumnCount + 2))
            }
            guard let last = page.last else { break }
            var rebuilt = PostgreSQLCopyRows()
            for entry in page {
                let lexemes = PostgreSQLSearchTerms.lexemes(of: Self.document(of: entry.product, skus: entry.skus))
                rebuilt.append(entry.seq)
                rebuilt.append(lexemes.tsvector)
                rebuilt.endRow()
                if entry.live { try countLive(lexemes.words) }
            }
            try connection.copyIn("COPY search_rebuilt (product_seq, search_words) FROM STDIN", data: rebuilt.bytes)
            after = last.seq
        }
        try connection.execute("""
            UPDATE products p SET search_words = r.search_words FROM search_rebuilt r WHERE p.seq = r.product_seq;
            TRUNCATE search_rebuilt, search_reindex;
            """)
    }

    /// Applies every delta gathered to `search_word_counts`, in word order (the order every
    /// writer of the counts locks them in), and removes the words no live product has any more.
    mutating func applyDeltas() throws {
        try copyCounts()
        try connection.execute("""
            INSERT INTO search_word_counts AS c (word, products)
                SELECT word, sum(delta) FROM search_word_deltas GROUP BY word HAVING sum(delta) <> 0 ORDER BY word COLLATE "C"
                ON CONFLICT (word) DO UPDATE SET products = c.products + excluded.products;
            DELETE FROM search_word_counts c USING (SELECT DISTINCT word FROM search_word_deltas WHERE delta < 0) d
                WHERE c.word = d.word AND c.products = 0;
            TRUNCATE search_word_deltas;
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
