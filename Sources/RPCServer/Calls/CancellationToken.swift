
/// Tells a call's work to stop. Cancelled at most once (by a deadline, a client's cancel or
/// shutdown); handlers registered with `onCancel` run exactly once, in registration order, on the
/// cancelling thread, or at once on the registering thread if already cancelled. Thread-safe.
///
/// A handler may still run after its registration was removed if `cancel()` had already taken it
/// (handlers run outside the lock); work that reuses what a handler touches must allow for that.
///
/// ```swift
/// .callback("report.build", params: NoParams.self) { _, context, done in
///     let job = ReportJob(done: done)
///     let registration = context.cancellation.onCancel { job.stop() }  // deadline, cancel, shutdown
///     job.onFinish { registration.remove() }
///     job.start()
/// }
/// ```
public final class CancellationToken: Sendable {
    private struct State {
        var isCancelled = false
        var nextKey = 0
        /// Few at a time (usually none or one), so a small array in registration order.
        var handlers: [(key: Int, action: @Sendable () -> Void)] = []
    }

    private let state = Locked(State())

    public init() {}

    public var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Registers `action`; the returned registration removes it (call it when the work it guards is over).
    @discardableResult
    public func onCancel(_ action: @escaping @Sendable () -> Void) -> CancellationRegistration {
        let key: Int? = state.withLock { state in
            if state.isCancelled { return nil }
            let key = state.nextKey
            state.nextKey += 1
            state.handlers.append((key, action))
            return key
        }
        guard let key else {
            action()
            return CancellationRegistration(token: nil, key: 0)
        }
        return CancellationRegistration(token: self, key: key)
    }

    fileprivate func removeHandler(_ key: Int) {
        state.withLock { state in
            if let index = state.handlers.firstIndex(where: { $0.key == key }) { state.handlers.remove(at: index) }
        }
    }

    /// Cancels; returns false if it was already cancelled. Handlers run outside the lock.
    @discardableResult
    public func cancel() -> Bool {
        let handlers: [(key: Int, action: @Sendable () -> Void)]? = state.withLock { state in
            if state.isCancelled { return nil }
            state.isCancelled = true
            defer { state.handlers = [] }
            return state.handlers
        }
        guard let handlers else { return false }
        for handler in handlers { handler.action() }
        return true
    }
}

/// Removes a cancellation handler when `remove()` is called. Removing twice is harmless. Holds its
/// token until dropped.
public struct CancellationRegistration: Sendable {
    private let token: CancellationToken?
    private let key: Int

    fileprivate init(token: CancellationToken?, key: Int) {
        self.token = token
        self.key = key
    }

    public func remove() { token?.removeHandler(key) }
}
