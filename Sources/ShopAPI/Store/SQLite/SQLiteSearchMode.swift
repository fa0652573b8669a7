/// How this store searches products, decided when it opens.
enum SQLiteSearchMode: Sendable {
    /// The FTS5 word index `product_words` (`SQLiteSearchIndex`).
    case fullText
    /// SQLite without FTS5: products are read in catalog order and their words compared here,
    /// until enough match. The same results, at a cost that grows with the catalog.
    case scan
}
