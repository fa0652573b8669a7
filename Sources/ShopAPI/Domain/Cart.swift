// MARK: - Cart

/// A cart's contents. Immutable value; `Sendable`.
///
/// A cart exists implicitly: an id never written to reads as an empty cart. Lines keep the order
/// in which their SKUs were first added.
public struct Cart: Codable, Sendable, Equatable {
    public let cartId: String
    public let lines: [CartLine]
    /// Sum of `quantity * unitPriceCents` over `lines`.
    public let totalCents: Int
    /// Always `"USD"`.
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
    /// A cart whose total is computed from `lines`.
    init(cartId: String, lines: [CartLine]) {
        self.init(cartId: cartId, lines: lines, totalCents: lines.totalCents, currency: ShopCurrency.code)
    }
}

extension Array where Element == CartLine {
    /// Sum of `quantity * unitPriceCents`.
    var totalCents: Int {
        reduce(0) { $0 + $1.quantity * $1.unitPriceCents }
    }
}
