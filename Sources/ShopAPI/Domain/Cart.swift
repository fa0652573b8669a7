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
    ///
    /// Throws `.cartTotalOutOfRange` when the total cannot be represented (see `checkedTotalCents`).
    init(cartId: String, lines: [CartLine], currency: String) throws(ShopError) {
        guard let total = lines.checkedTotalCents else { throw ShopError.cartTotalOutOfRange(cartId: cartId) }
        self.init(cartId: cartId, lines: lines, totalCents: total, currency: currency)
    }
}

extension Array where Element == CartLine {
    /// Sum of `quantity * unitPriceCents`; nil when a product or the sum does not fit an `Int`.
    ///
    /// Checked, never trapping, although carts built under `ShopLimits.maxCartLines` always fit
    /// (their total is at most 9.99 × 10^16): the lines come from the store, which may hold carts
    /// written before that limit existed (9 233 lines of 999 units at 10^12 cents overflow), or
    /// under a larger limit or price range later. A trap here would stop the server for every
    /// client; nil becomes a typed error for the one whose cart it is.
    var checkedTotalCents: Int? {
        var total = 0
        for line in self {
            let (amount, productOverflow) = line.quantity.multipliedReportingOverflow(by: line.unitPriceCents)
            let (sum, sumOverflow) = total.addingReportingOverflow(amount)
            guard !productOverflow, !sumOverflow else { return nil }
            total = sum
        }
        return total
    }
}
