/// How this store searches products, decided when it opens.
enum SQLiteSearchMode: Sendable {
    /// The FTS5 index `product_words` (`SQLiteSearchIndex`) gives the candidates of a query.
    case fullText
    /// SQLite without FTS5: the live products' stored words (`search_documents`) are read in
    /// catalog order and checked here, until enough match. The same results, at a cost that grows
    /// with the catalog.
    case scan
}
