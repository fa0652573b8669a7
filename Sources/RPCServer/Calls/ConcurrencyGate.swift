import Synchronization

/// Admits at most `limit` pieces of work at once; the rest wait in FIFO order without blocking a
/// thread (no semaphore: a blocked worker would starve the pool). `enter` runs `start` at once or
/// when a slot frees, on the thread that calls `leave`. Thread-safe.
final class ConcurrencyGate: Sendable {
    private struct State {
        var running = 0
        var waiting: [@Sendable () -> Void] = []
        var head = 0
    }

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) { self.limit = max(1, limit) }

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
        next?()
    }
}
