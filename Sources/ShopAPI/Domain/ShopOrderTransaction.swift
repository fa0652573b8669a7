/// The write `OrderPlacement.run(in:)` needs besides `ShopWriteTransaction`'s, for a store
/// that places an order statement by statement (SQLite). A store that runs the order rules its
/// own way (PostgreSQL: one server-side function) has no use for it and does not conform. Same
/// thread rules as `ShopReadTransaction`.
protocol ShopOrderTransaction: ShopWriteTransaction {
    /// Stores `order` under `idempotencyKey`, which must not be in use.
    func insertOrder(_ order: Order, idempotencyKey: String) throws
}
