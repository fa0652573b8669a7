/// One submitted write operation, type-erased so operations with different results can share a
/// group. Immutable; `Sendable`.
struct PendingWrite: Sendable {
    /// Checked when the operation would start; if it fired, the operation is skipped.
    let interruption: (any ShopInterruption)?
    /// Runs the operation inside its savepoint. On success returns the closure that delivers its
    /// result, to be called only after the group commits.
    let perform: @Sendable (any ShopOrderTransaction) throws -> @Sendable () -> Void
    /// Delivers a failure.
    let fail: @Sendable (ShopError) -> Void
}
