// MARK: - ShopInterruption

/// How the engine tells the shop to stop work whose caller cancelled it or whose deadline passed.
/// The engine's cancellation token conforms to this in the binding file.
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
}
