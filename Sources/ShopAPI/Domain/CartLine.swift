/// One SKU in a cart or an order. Immutable value; `Sendable`.
public struct CartLine: Codable, Sendable, Equatable {
    public let sku: String
    /// `1...ShopLimits.maxLineQuantity`.
    public let quantity: Int
    /// The product's price when the line was last added to (in a cart) or when ordered (in an order).
    public let unitPriceCents: Int

    public init(sku: String, quantity: Int, unitPriceCents: Int) {
        self.sku = sku
        self.quantity = quantity
        self.unitPriceCents = unitPriceCents
    }
}
