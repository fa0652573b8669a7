/// Keeps `SQLiteSearchIndex`'s tables right as products change, on one connection inside a write
/// transaction: `index` a product that became live, `unindex` one that stopped being live or is
/// about to change, `reindex` one whose text or variants changed. Vocabulary counts are gathered
/// in memory (at most `maxPendingWords` words) and written by `flush()`, which the caller must
/// call before it commits. Used only on the connection's thread.
final class SQLiteSearchIndexWriter {
    /// Pending vocabulary changes are written once this many words have one.
    static let maxPendingWords = 50_000

    private let connection: SQLiteConnection
    private let fullText: Bool
    private var pending: [String: Int] = [:]

    init(connection: SQLiteConnection, searchMode: SQLiteSearchMode) {
        self.connection = connection
        self.fullText = searchMode == .fullText
    }

    /// Indexes the live product at `productSeq` under `document`'s words (`ahead` may be its
    /// entry, made ahead). The product must not be indexed already.
    func index(productSeq: Int64, document: SearchDocument, ahead: AnalyzedCatalogRows<SQLiteSearchIndex.Entry>.Analysis? = nil) throws {
        let entry = ahead?.entry(of: document) ?? SQLiteSearchIndex.entry(of: document)
        try connection.run("INSERT INTO search_documents (product_seq, words) VALUES (?1, ?2)", productSeq, entry.wordsText)
        if fullText {
            try connection.run("INSERT INTO product_words (rowid, terms) VALUES (?1, ?2)", productSeq, entry.terms)
        }
        try count(entry.words, by: 1)
    }

    /// Takes the product at `productSeq` out of the index (nothing when it is not in it).
    func unindex(productSeq: Int64) throws {
        guard let text = try connection.query("SELECT words FROM search_documents WHERE product_seq = ?1", [productSeq], row: { $0.text(0) }).first
        else { return }
        try connection.run("DELETE FROM search_documents WHERE product_seq = ?1", productSeq)
        if fullText {
            try connection.run("INSERT INTO product_words (product_words, rowid, terms) VALUES ('delete', ?1, ?2)",
                               productSeq, SQLiteSearchIndex.terms(ofWords: text))
        }
        try count(Set(text.split(separator: " ").lazy.filter { !SearchIndexTerms.isNameTerm($0) }.map(String.init)), by: -1)
    }

    /// Indexes the product at `productSeq` as its rows are now: out of the index, then back in
    /// when it is live.
    func reindex(productSeq: Int64) throws {
        try unindex(productSeq: productSeq)
        if let document = try Self.liveDocument(productSeq: productSeq, on: connection) {
            try index(productSeq: productSeq, document: document)
        }
    }

    /// Writes the pending vocabulary counts (words reaching 0 products are deleted).
    func flush() throws {
        for (word, delta) in pending.sorted(by: { SearchWordOrder.precedes($0.key, $1.key) }) where delta != 0 {
            if delta > 0 {
                try connection.run("""
                    INSERT INTO search_vocabulary (word, products) VALUES (?1, ?2)
                    ON CONFLICT (word) DO UPDATE SET products = products + excluded.products
                    """, word, delta)
            } else {
                try connection.run("UPDATE search_vocabulary SET products = products + ?2 WHERE word = ?1", word, delta)
                try connection.run("DELETE FROM search_vocabulary WHERE word = ?1 AND products <= 0", word)
            }
        }
        pending.removeAll(keepingCapacity: true)
    }

    private func count(_ words: Set<String>, by delta: Int) throws {
        for word in words { pending[word, default: 0] += delta }
        if pending.count >= Self.maxPendingWords { try flush() }
    }

    // MARK: - Reading products

    /// The search document of the live product whose first variant is at `productSeq` (every live
    /// variant's SKU, in catalog order), or nil when there is none.
    static func liveDocument(productSeq: Int64, on connection: SQLiteConnection) throws -> SearchDocument? {
        let rows = try connection.query(
            """
            SELECT v.name, v.brand, v.category, v.description, v.handle, v.sku, v.seq = v.product_seq FROM products f
            JOIN products v ON v.sku IN \(SQLiteProductHandle.skus(ofHandlesIn: "(f.handle)"))
            WHERE f.seq = ?1 AND f.product_seq = ?1 AND f.archived = 0 AND v.archived = 0 ORDER BY v.seq
            """, [productSeq]
        ) { (document: SearchDocument(name: $0.text(0), brand: $0.text(1), category: $0.text(2), description: $0.text(3),
                                      sku: $0.text(5), handle: $0.text(4)), isFirst: $0.int(6) == 1) }
        guard var document = rows.first(where: \.isFirst)?.document else { return nil }
        document.sku = rows.map(\.document.sku).joined(separator: " ")
        return document
    }

    /// Fills `search_documents` and `search_vocabulary` (emptied first) from every live product,
    /// reading them in catalog order; `product_words` is left to `SQLiteSearchIndex.prepare`.
    static func rebuildDocuments(on connection: SQLiteConnection) throws {
        try connection.execute("DELETE FROM search_documents; DELETE FROM search_vocabulary;")
        let writer = SQLiteSearchIndexWriter(connection: connection, searchMode: .scan)
        var current: (seq: Int64, document: SearchDocument)?
        try connection.forEachRow(
            """
            SELECT product_seq, seq, name, brand, category, description, handle, sku FROM products
            WHERE archived = 0 ORDER BY product_seq, seq
            """, []
        ) { row in
            let productSeq = row.int64(0)
            if let open = current, open.seq == productSeq {
                current?.document.sku += " " + row.text(7)
                return
            }
            if let open = current { try writer.index(productSeq: open.seq, document: open.document) }
            current = nil
            // A product's rows start with its first variant (seq = product_seq) when it is live.
            guard row.int64(1) == productSeq else { return }
            current = (productSeq, SearchDocument(name: row.text(2), brand: row.text(3), category: row.text(4),
                                                  description: row.text(5), sku: row.text(7), handle: row.text(6)))
        }
        if let open = current { try writer.index(productSeq: open.seq, document: open.document) }
        try writer.flush()
    }
}
