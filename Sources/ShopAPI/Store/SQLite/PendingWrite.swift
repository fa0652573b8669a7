import SharedSupport

/// One submitted write operation, type-erased so operations with different results can share a
/// group. Its `perform` or `fail` is called exactly once: by the writer, which claims it before
/// running it, or, while it still waits, by its interruption (`claim()` decides). `Sendable`.
struct PendingWrite: Sendable {
    /// Fires when the call stops wanting the write: a write still waiting fails at once, and one
    /// the writer has claimed is skipped if it fired by the time it would start.
    let interruption: (any ShopInterruption)?
    /// Runs the operation inside its savepoint. On success returns the closure that delivers its
    /// result, to be called only after the group commits.
    let perform: @Sendable (any ShopOrderTransaction) throws -> @Sendable () -> Void
    /// Delivers a failure.
    let fail: @Sendable (ShopError) -> Void
    private let claimed = OneShot()

    init(interruption: (any ShopInterruption)?,
         perform: @escaping @Sendable (any ShopOrderTransaction) throws -> @Sendable () -> Void,
         fail: @escaping @Sendable (ShopError) -> Void) {
        self.interruption = interruption
        self.perform = perform
        self.fail = fail
    }

    /// Takes the write over: true for the first caller only (the writer or the interruption).
    func claim() -> Bool {
        claimed.claim()
    }
}
