// MARK: - SQLiteSearchMode

/// How this store searches products, decided when it opens.
enum SQLiteSearchMode: Sendable {
    /// FTS5 table `product_search`: word-prefix matches ranked by bm25.
    case fullText
    /// SQLite without FTS5: substring `LIKE` matches (ASCII case-insensitive), ordered by SKU.
    case like
}
