/// One row of the stock ledger: one change of one SKU's level. Every change of stock appends
/// exactly one, in the same transaction as the change (an order placed or cancelled, an adjust, a
/// set, an import), so for every SKU the deltas of its rows add up to its current level minus its
/// level before its first row, and each row's `availableAfter` is the one before it plus `delta`.
/// Rows are never changed or removed. Immutable value; `Sendable`.
public struct StockMovement: Codable, Sendable, Equatable {
    /// Position in the ledger, from 1; larger is later. For one SKU, later changes have larger
    /// sequences on every store (changes of a SKU are serialised by its stock row).
    public let sequence: Int64
    /// When the change was made: ISO 8601 UTC with milliseconds, as `Order.createdAt`.
    public let at: String
    public let sku: String
    /// Units added (positive) or taken (negative); never 0.
    public let delta: Int
    /// The SKU's level right after this change.
    public let availableAfter: Int
    public let reason: Reason
    /// The order placed or cancelled (`sale`, `cancellation`); nil otherwise.
    public let orderId: String?
    /// What made the change when no order did: the method (`admin.stock.adjust`, …) or the import.
    public let source: String?
    /// Who asked: the request's `params._meta.actor`, when it carried one.
    public let actor: String?

    public init(sequence: Int64, at: String, sku: String, delta: Int, availableAfter: Int, reason: Reason,
                orderId: String?, source: String?, actor: String?) {
        self.sequence = sequence
        self.at = at
        self.sku = sku
        self.delta = delta
        self.availableAfter = availableAfter
        self.reason = reason
        self.orderId = orderId
        self.source = source
        self.actor = actor
    }

    /// The level before this change.
    public var availableBefore: Int { availableAfter - delta }
}

// MARK: - Reasons

extension StockMovement {
    /// Why a level changed. Its raw value is what the ledger stores and exports.
    public enum Reason: String, Codable, Sendable, CaseIterable {
        /// An order took the units (`orders.place`).
        case sale
        /// A cancelled order gave its units back (`orders.cancel`).
        case cancellation
        /// `admin.stock.adjust` with one of `StockAdjustmentReason`'s reasons.
        case received, correction, damaged, returned, other
        /// `admin.stock.set` put the level at a new value.
        case set
        /// A catalog import set the level (its `stock` column).
        case `import`

        init(_ adjustment: StockAdjustmentReason) {
            switch adjustment {
            case .received: self = .received
            case .correction: self = .correction
            case .damaged: self = .damaged
            case .returned: self = .returned
            case .other: self = .other
            }
        }
    }
}

// MARK: - StockAdjustmentReason

/// Why an operator adjusts a level by a delta (`admin.stock.adjust`): the documented set, as
/// Shopify's inventory adjustments name them.
public enum StockAdjustmentReason: String, Codable, Sendable, CaseIterable {
    /// A delivery arrived.
    case received
    /// A count found the level wrong.
    case correction
    /// Units were written off as damaged.
    case damaged
    /// A customer returned units outside an order cancel.
    case returned
    /// Anything else.
    case other
}
