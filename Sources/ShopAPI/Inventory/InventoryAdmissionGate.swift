import Dispatch
import SharedSupport

// MARK: - InventoryAdmissionGate

/// Admits at most `limit` upstream requests at once; the others wait in FIFO order without
/// blocking a thread (no semaphore). The limit can change at any time (`setLimit`): a higher one
/// admits waiters at once, a lower one takes effect as running work leaves. A waiter can be withdrawn (its call's deadline passed or it
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

    fileprivate struct State {
        var limit: Int
        var running = 0
        var nextNumber: UInt64 = 0
        /// FIFO of tickets; withdrawn ones stay here until reached and are skipped then.
        var order: [Ticket] = []
        var head = 0
        var waiting: [Ticket: @Sendable () -> Void] = [:]
    }

    private let state: Locked<State>
    private let startQueue: DispatchQueue

    init(limit: Int, startQueue: DispatchQueue = .global()) {
        state = Locked(State(limit: max(1, limit)))
        self.startQueue = startQueue
    }

    /// The limit in force.
    var limit: Int { state.withLock { $0.limit } }

    /// Changes the limit (at least 1); waiters that now fit are started (on `startQueue`).
    func setLimit(_ newLimit: Int) {
        let admitted: [@Sendable () -> Void] = state.withLock { state in
            state.limit = max(1, newLimit)
            var admitted: [@Sendable () -> Void] = []
            while state.running < state.limit, let next = state.popOldestWaiter() {
                state.running += 1
                admitted.append(next)
            }
            return admitted
        }
        for start in admitted { startQueue.async(execute: start) }
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
            if state.running < state.limit {
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

    /// Frees the slot of a finished piece of work and starts the oldest waiter, if any (unless the
    /// limit has been lowered below what runs).
    func leave() {
        let next: (@Sendable () -> Void)? = state.withLock { state in
            if state.running <= state.limit, let start = state.popOldestWaiter() {
                return start  // the slot passes to it
            }
            state.running -= 1
            return nil
        }
        if let next { startQueue.async(execute: next) }
    }

    /// How many run and how many wait, and the limit (for stats, tests and logs).
    var counts: (running: Int, waiting: Int, limit: Int) {
        state.withLock { ($0.running, $0.waiting.count, $0.limit) }
    }

    /// Whether every slot is taken, so a ticket entering now would wait.
    var allSlotsBusy: Bool {
        state.withLock { $0.running >= $0.limit }
    }
}

extension InventoryAdmissionGate.State {
    /// Removes and returns the oldest waiter's start, skipping withdrawn tickets.
    fileprivate mutating func popOldestWaiter() -> (@Sendable () -> Void)? {
        while head < order.count {
            let ticket = order[head]
            head += 1
            if let start = waiting.removeValue(forKey: ticket) {
                // Drop the consumed front once it is most of the array, so it cannot grow
                // without bound under steady load.
                if head >= 1024, head * 2 >= order.count {
                    order.removeFirst(head)
                    head = 0
                }
                return start
            }
        }
        order.removeAll(keepingCapacity: true)
        head = 0
        return nil
    }
}
