/// How SQLite finds the variants of a product by its handle, since schema version 7
/// (`SQLiteSchema`): `products_by_handle` is partial, and leaves out a product's first variant
/// when the handle is that variant's own SKU. That is every product of a catalog without handles
/// (an import without a `handle` column, every SKU that migrated to variants), so such a catalog
/// costs no row in it; a variant it leaves out is found by its primary key instead.
///
/// Every query that reads a product's variants by handle goes through these pieces: a query that
/// read `products_by_handle` alone would miss the variants the index leaves out. Pure; any thread.
enum SQLiteProductHandle {
    /// The rows `products_by_handle` holds: its `WHERE`, written with `alias` (`"o."`, or `""` for
    /// none). A query names this term exactly, or SQLite cannot use the partial index.
    static func indexedRows(_ alias: String = "") -> String {
        "(\(alias)seq <> \(alias)product_seq OR \(alias)handle <> \(alias)sku)"
    }

    /// A subquery (in parentheses) of the SKUs of every variant, whatever its status, of the
    /// products whose handle is in `handles` (an SQL list or subquery in parentheses, such as
    /// `(?1)` or `(SELECT value FROM json_each(?1))`): the first variants named by their own SKU,
    /// by primary key, then the index's rows. Each variant once. For `sku IN …`.
    static func skus(ofHandlesIn handles: String) -> String {
        """
        (SELECT sku FROM products WHERE sku IN \(handles) AND handle = sku AND seq = product_seq
        UNION ALL SELECT sku FROM products INDEXED BY products_by_handle WHERE handle IN \(handles) AND \(indexedRows()))
        """
    }

    /// An expression, 1 or 0: whether the product of `first`, its first variant (an alias such as
    /// `p`), has another variant. Every variant but the first is in the index, so one probe of it.
    static func hasOtherVariants(first: String) -> String {
        """
        EXISTS (SELECT 1 FROM products o INDEXED BY products_by_handle
                WHERE o.handle = \(first).handle AND \(indexedRows("o.")) AND o.seq <> \(first).seq)
        """
    }
}
