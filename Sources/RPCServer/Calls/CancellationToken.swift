import SharedSupport

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
    private typealias Handler = (key: Int, action: @Sendable () -> Void)

    private struct State {
        var isCancelled = false
        var nextKey = 0
        /// Usually none or one at a time (a call's store read registers one), so the first is kept
        /// inline, with no array to allocate. Registration order: `first`, when set, was registered
        /// before every handler in `more` (a new handler goes into `first` only when both are empty).
        var first: Handler?
        var more: [Handler] = []

        mutating func add(_ handler: Handler) {
            if first == nil, more.isEmpty { first = handler } else { more.append(handler) }
        }

        mutating func remove(_ key: Int) {
            if first?.key == key {
                first = nil
            } else if let index = more.firstIndex(where: { $0.key == key }) {
                more.remove(at: index)
            }
        }

        /// Every handler, in registration order, leaving none.
        mutating func takeAll() -> [Handler] {
            defer { first = nil; more = [] }
            guard let first else { return more }
            return [first] + more
        }
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
            state.add((key, action))
            return key
        }
        guard let key else {
            action()
            return CancellationRegistration(token: nil, key: 0)
        }
        return CancellationRegistration(token: self, key: key)
    }

    fileprivate func removeHandler(_ key: Int) {
        state.withLock { $0.remove(key) }
    }

    /// Cancels; returns false if it was already cancelled. Handlers run outside the lock.
    @discardableResult
    public func cancel() -> Bool {
        let handlers: [Handler]? = state.withLock { state in
            if state.isCancelled { return nil }
            state.isCancelled = true
            return state.takeAll()
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
