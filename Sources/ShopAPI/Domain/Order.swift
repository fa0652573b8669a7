// MARK: - Order

/// A placed order. Immutable value; `Sendable`. Once stored, an order never changes.
public struct Order: Codable, Sendable, Equatable {
    /// `ord_` followed by 16 lowercase hex digits.
    public let orderId: String
    public let cartId: String
    /// The cart's lines at the moment the order was placed.
    public let lines: [CartLine]
    public let totalCents: Int
    /// The store's currency (`ShopCurrency`).
    public let currency: String
    /// Always `"placed"` (`Order.placedStatus`).
    public let status: String
    /// ISO 8601 UTC with milliseconds, e.g. `2026-11-23T10:00:00.123Z`.
    public let createdAt: String

    public init(orderId: String, cartId: String, lines: [CartLine], totalCents: Int, currency: String, status: String, createdAt: String) {
        self.orderId = orderId
        self.cartId = cartId
        self.lines = lines
        self.totalCents = totalCents
        self.currency = currency
        self.status = status
        self.createdAt = createdAt
    }
}

// MARK: - Status

extension Order {
    /// The status of every order this shop creates.
    public static let placedStatus = "placed"
}
