import Dispatch

/// How the engine tells the shop to stop work whose caller cancelled it or whose deadline passed.
/// The binding file passes the engine's cancellation token with the call's deadline
/// (`ShopCallInterruption`).
///
/// Conformers must be thread-safe: the store reads `isInterrupted` and registers handlers from
/// whatever thread runs the work.
public protocol ShopInterruption: AnyObject, Sendable {
    /// `true` once interrupted; never goes back to `false`.
    var isInterrupted: Bool { get }

    /// Runs `action` once when interrupted (at once if already interrupted). Returns a closure
    /// that unregisters it; the store MUST unregister before it returns a connection to its pool,
    /// so a late interrupt never hits another call's work.
    func addInterruptHandler(_ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void

    /// When the work stops being wanted, if known. A store may hand it to its database as a
    /// backup for the interrupt (PostgreSQL's `statement_timeout`). Defaults to nil.
    var deadline: DispatchTime? { get }
}

extension ShopInterruption {
    public var deadline: DispatchTime? { nil }
}
