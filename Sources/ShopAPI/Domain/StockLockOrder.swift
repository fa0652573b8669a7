/// The one order in which a write that changes several SKUs' levels changes them: by the bytes of
/// their UTF-8 SKUs, which is PostgreSQL's `COLLATE "C"` order, the order `shop_place_order`
/// takes its stock rows in (`PostgreSQLOrderFunction`). Writers that lock rows in one order never
/// wait for each other in a cycle. Pure; thread-safe.
enum StockLockOrder {
    /// `lines` sorted by SKU, byte by byte.
    static func sorted(_ lines: [CartLine]) -> [CartLine] {
        lines.sorted { $0.sku.utf8.lexicographicallyPrecedes($1.sku.utf8) }
    }
}
