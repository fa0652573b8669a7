/// The SQLite store's word index: `product_words`, an FTS5 table holding, for each active product,
/// its `SearchText.productWords` under its catalog position (`rowid` = the `seq` of its first
/// variant, `products.product_seq`): one entry per product, whatever its variants.
///
/// Lean by design: contentless (`content=''`: the words are not stored twice), `detail=none`
/// (only which products have a word, not where), one column, and the `ascii` tokenizer, which
/// splits the words `SearchText` made at their single spaces and changes nothing else, so the
/// index holds exactly the words PostgreSQL's holds. FTS5 reads a word's products in `rowid`
/// order, so a search in catalog order stops after its first results. A contentless table cannot
/// give back what it holds: to take a product out, the store recomputes its words
/// (`remove(seq:document:)`).
enum SQLiteSearchIndex {
    static let createTable = """
        CREATE VIRTUAL TABLE product_words USING fts5(words, content = '', detail = none, tokenize = 'ascii')
        """

    /// Makes sure `product_words` exists and is usable, creating and filling it if missing.
    /// Returns `.scan` when FTS5 is unavailable (or not allowed). Call inside a write transaction.
    static func prepare(_ connection: SQLiteConnection, allowFullText: Bool) throws -> SQLiteSearchMode {
        guard allowFullText else { return .scan }
        if let mode = try existingMode(connection) { return mode }
        do {
            try connection.inSavepoint("search_index") {
                try connection.execute(createTable)
                let products = try connection.query(
                    "SELECT seq, name, category FROM products WHERE archived = 0 AND seq = product_seq", []
                ) { ($0.int64(0), $0.text(1), $0.text(2)) }
                for (seq, name, category) in products {
                    try add(seq: seq, document: SearchText.productDocument(name: name, category: category), on: connection)
                }
            }
            return .fullText
        } catch let error as SQLiteError where error.message.contains("no such module") {
            return .scan
        }
    }

    /// How to search with the index as it is, creating nothing (a read-only store): `.fullText`
    /// when the index exists and this SQLite has FTS5, `.scan` when it exists without FTS5, nil
    /// when there is none.
    static func existingMode(_ connection: SQLiteConnection) throws -> SQLiteSearchMode? {
        let exists = try connection.query(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'product_words'", []
        ) { $0.int(0) }.first == 1
        guard exists else { return nil }
        // Present but unusable means this SQLite lacks FTS5 (the file came from elsewhere).
        return (try? connection.prepared("SELECT rowid FROM product_words LIMIT 0")) == nil ? .scan : .fullText
    }

    // MARK: - Changes

    /// Indexes the product at catalog position `seq` under `document`'s words.
    static func add(seq: Int64, document: String, on connection: SQLiteConnection) throws {
        try connection.run("INSERT INTO product_words (rowid, words) VALUES (?1, ?2)", seq, document)
    }

    /// Takes the product at `seq` out of the index; `document` must be the one it was added with.
    static func remove(seq: Int64, document: String, on connection: SQLiteConnection) throws {
        try connection.run("INSERT INTO product_words (product_words, rowid, words) VALUES ('delete', ?1, ?2)", seq, document)
    }

    // MARK: - Queries

    /// An FTS5 query for products having, for every group, one of its words: each word a quoted
    /// string (inner quotes doubled, though words have none), so no text is ever FTS5 syntax.
    static func fullTextQuery(wordGroups: [[String]]) -> String {
        wordGroups.map { group in
            let words = group.map { "\"" + $0.replacing("\"", with: "\"\"") + "\"" }
            return words.count == 1 ? words[0] : "(" + words.joined(separator: " OR ") + ")"
        }.joined(separator: " AND ")
    }
}
