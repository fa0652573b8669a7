import Dispatch
import RPCServer  // Locked: a lock ThreadSanitizer can see

// MARK: - InventoryAdmissionGate

/// Admits at most `limit` upstream requests at once; the others wait in FIFO order without
/// blocking a thread (no semaphore). A waiter can be withdrawn (its call's deadline passed or it
/// was cancelled): it is then never started, so it never reaches the service. Thread-safe.
///
/// `start` runs at once on the caller's thread of `enter` when a slot is free; a waiter admitted
/// by `leave` runs on `startQueue`, never inline in `leave` (whose caller may be finishing the
/// previous request, and inline starts could nest one stack frame per waiter).
final class InventoryAdmissionGate: Sendable {
    /// Identifies one waiter, for `withdraw`.
    struct Ticket: Hashable, Sendable {
        fileprivate let number: UInt64
    }

    private struct State {
        var running = 0
        var nextNumber: UInt64 = 0
        /// FIFO of tickets; withdrawn ones stay here until reached and are skipped then.
        var order: [Ticket] = []
        var head = 0
        var waiting: [Ticket: @Sendable () -> Void] = [:]
    }

    let limit: Int
    private let state = Locked(State())
    private let startQueue: DispatchQueue

    init(limit: Int, startQueue: DispatchQueue = .global()) {
        self.limit = max(1, limit)
        self.startQueue = startQueue
    }

    /// A ticket for one later `enter`, so a caller can withdraw before or after it enters.
    func makeTicket() -> Ticket {
        state.withLock { state in
            defer { state.nextNumber += 1 }
            return Ticket(number: state.nextNumber)
        }
    }

    /// Runs `start` now if fewer than `limit` are running, else queues it behind earlier waiters.
    /// Every started piece of work must call `leave()` exactly once when it is over.
    func enter(_ ticket: Ticket, _ start: @escaping @Sendable () -> Void) {
        let admitted = state.withLock { state -> Bool in
            if state.running < limit {
                state.running += 1
                return true
            }
            state.order.append(ticket)
            state.waiting[ticket] = start
            return false
        }
        if admitted { start() }
    }

    /// Removes a waiter. Returns true if it was waiting (its `start` will never run); false if it
    /// was already started or never entered.
    func withdraw(_ ticket: Ticket) -> Bool {
        state.withLock { state in
            guard state.waiting.removeValue(forKey: ticket) != nil else { return false }
            if state.waiting.isEmpty {
                state.order.removeAll(keepingCapacity: true)
                state.head = 0
            }
            return true
        }
    }

    /// Frees the slot of a finished piece of work and starts the oldest waiter, if any.
    func leave() {
        let next: (@Sendable () -> Void)? = state.withLock { state in
            while state.head < state.order.count {
                let ticket = state.order[state.head]
                state.head += 1
                if let start = state.waiting.removeValue(forKey: ticket) {
                    // Drop the consumed front once it is most of the array, so it cannot grow
                    // without bound under steady load.
                    if state.head >= 1024, state.head * 2 >= state.order.count {
                        state.order.removeFirst(state.head)
                        state.head = 0
                    }
                    return start
                }
            }
            state.order.removeAll(keepingCapacity: true)
            state.head = 0
            state.running -= 1
            return nil
        }
        if let next { startQueue.async(execute: next) }
    }

    /// How many run and how many wait (for tests and logs).
    var counts: (running: Int, waiting: Int) {
        state.withLock { ($0.running, $0.waiting.count) }
    }
}
