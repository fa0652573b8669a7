// MARK: - ShopReadTransaction

/// Primitive reads inside one store transaction. Used only on the thread that received it, and
/// only while the transaction's closure runs. Methods throw storage errors (any `Error`), which
/// the store maps to `ShopError`.
///
/// `products`, `product` and `searchProducts` must each run exactly one statement: the service
/// reads them with `ShopStore.readOneStatement`, outside an explicit transaction where the store allows.
protocol ShopReadTransaction {
    /// Products with `sku > afterSku` (all when `nil`), in `category` when given, ordered by SKU.
    func products(afterSku: String?, category: String?, limit: Int) throws -> [Product]
    func product(sku: String) throws -> Product?
    /// Products matching every term as a word prefix (case-insensitively) in name, description or
    /// category; best matches first. `terms` is non-empty and holds only letters and digits.
    func searchProducts(terms: [String], limit: Int) throws -> [Product]
    /// Units available; `nil` for an unknown SKU.
    func available(sku: String) throws -> Int?
    /// In the order their SKUs were first added; empty for an unknown cart.
    func cartLines(cartId: String) throws -> [CartLine]
    func order(id: String) throws -> Order?
    /// Orders placed before the one with `beforeSequence` (all when `nil`), newest first.
    func orders(cartId: String?, beforeSequence: Int64?, limit: Int) throws -> [StoredOrder]
    /// The order an idempotency key placed, if any.
    func orderReference(idempotencyKey: String) throws -> (orderId: String, cartId: String)?
    /// Ledger rows with a sequence above `afterSequence`, made at or after `since` when given (a
    /// timestamp in the ledger's own format, `OrderStamp.timestamp`), in sequence order, at most `limit`.
    func stockMovements(afterSequence: Int64, since: String?, limit: Int) throws -> [StockMovement]
}
