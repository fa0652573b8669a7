import Synchronization

/// Tells a call's work to stop. Cancelled at most once (by a deadline, a client's cancel or
/// shutdown); handlers registered with `onCancel` run exactly once, on the cancelling thread, or at
/// once on the registering thread if already cancelled. Thread-safe.
public final class CancellationToken: Sendable {
    private struct State {
        var isCancelled = false
        var nextKey = 0
        var handlers: [Int: @Sendable () -> Void] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    public var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Registers `action`; the returned registration removes it (call it when the work it guards is over).
    @discardableResult
    public func onCancel(_ action: @escaping @Sendable () -> Void) -> CancellationRegistration {
        let key: Int? = state.withLock { state in
            if state.isCancelled { return nil }
            let key = state.nextKey
            state.nextKey += 1
            state.handlers[key] = action
            return key
        }
        guard let key else {
            action()
            return CancellationRegistration {}
        }
        return CancellationRegistration { [weak self] in
            _ = self?.state.withLock { $0.handlers.removeValue(forKey: key) }
        }
    }

    /// Cancels; returns false if it was already cancelled. Handlers run outside the lock.
    @discardableResult
    public func cancel() -> Bool {
        let handlers: [@Sendable () -> Void]? = state.withLock { state in
            if state.isCancelled { return nil }
            state.isCancelled = true
            defer { state.handlers.removeAll() }
            return state.handlers.sorted { $0.key < $1.key }.map(\.value)
        }
        guard let handlers else { return false }
        for handler in handlers { handler() }
        return true
    }
}

/// Removes a cancellation handler when `remove()` is called. Removing twice is harmless.
public struct CancellationRegistration: Sendable {
    private let removal: @Sendable () -> Void
    init(_ removal: @escaping @Sendable () -> Void) { self.removal = removal }
    public func remove() { removal() }
}
