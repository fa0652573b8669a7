import FoundationEssentials

// MARK: - SQLiteSearchIndex

/// Creates the FTS5 index over products when SQLite has FTS5.
enum SQLiteSearchIndex {
    /// Makes sure `product_search` exists and is usable, creating and filling it if missing.
    /// Returns `.like` when FTS5 is unavailable (or not allowed). Call inside a write transaction.
    static func prepare(_ connection: SQLiteConnection, allowFullText: Bool) throws -> SQLiteSearchMode {
        guard allowFullText else { return .like }
        let exists = try connection.query(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'product_search'", []
        ) { $0.int(0) }.first == 1
        if exists {
            // Present but unusable means this SQLite lacks FTS5 (the file came from elsewhere).
            return (try? connection.prepared("SELECT sku FROM product_search LIMIT 0")) == nil ? .like : .fullText
        }
        do {
            try connection.inSavepoint("search_index") {
                try connection.execute("""
                    CREATE VIRTUAL TABLE product_search USING fts5(
                        sku UNINDEXED, name, description, category,
                        tokenize = 'unicode61 remove_diacritics 2'
                    );
                    INSERT INTO product_search (sku, name, description, category)
                        SELECT sku, name, description, category FROM products;
                    """)
            }
            return .fullText
        } catch let error as SQLiteError where error.message.contains("no such module") {
            return .like
        }
    }

    // MARK: - Queries

    /// An FTS5 query matching every term as a prefix. Each term is a quoted string (inner quotes
    /// doubled), so no user text is ever FTS5 syntax.
    static func fullTextQuery(terms: [String]) -> String {
        terms.map { "\"" + $0.replacing("\"", with: "\"\"") + "\"*" }.joined(separator: " ")
    }

    /// A `LIKE … ESCAPE '\'` pattern matching `term` anywhere, with `%`, `_` and `\` escaped.
    static func likePattern(term: String) -> String {
        var escaped = ""
        for character in term {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return "%" + escaped + "%"
    }
}
