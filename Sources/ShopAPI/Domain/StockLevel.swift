// MARK: - StockLevel

/// Units of one SKU available to order at the moment it was read. Immutable value; `Sendable`.
///
/// Carts do not reserve stock, so a level is advice, not a promise: `placeOrder` checks again.
public struct StockLevel: Codable, Sendable, Equatable {
    public let sku: String
    /// Never negative.
    public let available: Int

    public init(sku: String, available: Int) {
        self.sku = sku
        self.available = available
    }
}
