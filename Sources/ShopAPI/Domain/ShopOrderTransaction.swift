// MARK: - ShopOrderTransaction

/// The two writes `OrderPlacement.run(in:)` needs besides `ShopWriteTransaction`'s, for a store
/// that places an order statement by statement (SQLite). A store that runs the order rules its
/// own way (PostgreSQL: one server-side function) has no use for them and does not conform. Same
/// thread rules as `ShopReadTransaction`.
protocol ShopOrderTransaction: ShopWriteTransaction {
    /// Takes `quantity` units if at least that many are available. Returns `false` (changing
    /// nothing) otherwise, and for an unknown or archived SKU.
    func takeStock(sku: String, quantity: Int) throws -> Bool
    /// Stores `order` under `idempotencyKey`, which must not be in use.
    func insertOrder(_ order: Order, idempotencyKey: String) throws
}
