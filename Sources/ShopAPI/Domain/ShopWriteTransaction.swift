// MARK: - ShopWriteTransaction

/// Primitive writes inside one atomic store operation. Same thread rules as `ShopReadTransaction`.
protocol ShopWriteTransaction: ShopReadTransaction {
    /// Inserts the line, or replaces quantity and price of the cart's existing line for its SKU
    /// (keeping its position).
    func setCartLine(cartId: String, line: CartLine) throws
    /// Removes the cart's line for `sku`; no-op when absent.
    func removeCartLine(cartId: String, sku: String) throws
    func clearCart(cartId: String) throws
}
