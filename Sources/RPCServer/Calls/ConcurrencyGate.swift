import SharedSupport

/// Admits at most `limit` pieces of work at once; the rest wait in FIFO order without blocking a
/// thread (no semaphore: a blocked worker would starve the pool). `enter` runs `start` at once, or
/// hands it to `schedule` when a slot frees; never inline in `leave`, whose caller may be deep in
/// the previous piece of work (inline starts would nest one stack frame per waiter). Thread-safe.
final class ConcurrencyGate: Sendable {
    private struct State {
        var running = 0
        var waiting: [@Sendable () -> Void] = []
        var head = 0
    }

    let limit: Int
    private let state = Locked(State())
    private let schedule: @Sendable (@escaping @Sendable () -> Void) -> Void

    init(limit: Int, schedule: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        self.limit = max(1, limit)
        self.schedule = schedule
    }

    func enter(_ start: @escaping @Sendable () -> Void) {
        let admitted = state.withLock { state -> Bool in
            if state.running < limit {
                state.running += 1
                return true
            }
            state.waiting.append(start)
            return false
        }
        if admitted { start() }
    }

    func leave() {
        let next: (@Sendable () -> Void)? = state.withLock { state in
            guard state.head < state.waiting.count else {
                state.running -= 1
                return nil
            }
            let next = state.waiting[state.head]
            state.head += 1
            if state.head > 64, state.head * 2 > state.waiting.count {
                state.waiting.removeFirst(state.head)
                state.head = 0
            }
            return next  // the slot passes straight to the next waiter
        }
        if let next { schedule(next) }
    }
}
