// MARK: - ShopWriteTransaction

/// Primitive writes inside one atomic store operation. Same thread rules as `ShopReadTransaction`.
protocol ShopWriteTransaction: ShopReadTransaction {
    /// Makes every other write of the same cart (cart writes and orders, in any process) wait until
    /// this transaction ends, so a read-modify-write of the cart (`cart.add` sums quantities) is
    /// not overwritten by a concurrent one. Call it before reading the cart. A store that runs one
    /// write at a time (SQLite's single writer) has nothing to do.
    func lockCart(cartId: String) throws
    /// Inserts the line, or replaces quantity and price of the cart's existing line for its SKU
    /// (keeping its position).
    func setCartLine(cartId: String, line: CartLine) throws
    /// Removes the cart's line for `sku`; no-op when absent.
    func removeCartLine(cartId: String, sku: String) throws
    func clearCart(cartId: String) throws
}
