/// Why a stock level changes and on whose behalf: everything its ledger row records besides the
/// numbers (`StockMovement`). Every write that changes stock passes one, so no change can skip its
/// row. Immutable value; `Sendable`.
struct StockChangeCause: Sendable, Equatable {
    let reason: StockMovement.Reason
    /// Set for `sale` and `cancellation`.
    let orderId: String?
    /// Set when no order made the change.
    let source: String?
    let actor: String?
    /// ISO 8601 UTC with milliseconds (`OrderStamp.timestamp`).
    let at: String

    /// An order placed (`sale`) or cancelled (`cancellation`).
    static func order(_ reason: StockMovement.Reason, orderId: String, actor: String?, at: String) -> StockChangeCause {
        StockChangeCause(reason: reason, orderId: orderId, source: nil, actor: actor, at: at)
    }

    /// A change an operator or a tool made through `source` (a method name, an import).
    static func operation(_ reason: StockMovement.Reason, source: String, actor: String?, at: String) -> StockChangeCause {
        StockChangeCause(reason: reason, orderId: nil, source: source, actor: actor, at: at)
    }
}
