/// A cart's contents. Immutable value; `Sendable`.
///
/// A cart exists implicitly: an id never written to reads as an empty cart. Lines keep the order
/// in which their SKUs were first added.
public struct Cart: Codable, Sendable, Equatable {
    public let cartId: String
    public let lines: [CartLine]
    /// Sum of `quantity * unitPriceCents` over `lines`.
    public let totalCents: Int
    /// The store's currency (`ShopCurrency`).
    public let currency: String

    public init(cartId: String, lines: [CartLine], totalCents: Int, currency: String) {
        self.cartId = cartId
        self.lines = lines
        self.totalCents = totalCents
        self.currency = currency
    }
}

// MARK: - Building from lines

extension Cart {
    /// A cart whose total is computed from `lines`, in `currency`.
    init(cartId: String, lines: [CartLine], currency: String) {
        self.init(cartId: cartId, lines: lines, totalCents: lines.totalCents, currency: currency)
    }
}

extension Array where Element == CartLine {
    /// Sum of `quantity * unitPriceCents`.
    var totalCents: Int {
        reduce(0) { $0 + $1.quantity * $1.unitPriceCents }
    }
}
