import Dispatch
import Synchronization
import SharedSupport

/// Something with a deadline that the scheduler can expire.
protocol DeadlineExpirable: AnyObject, Sendable {
    /// When it expires, in `DispatchTime.uptimeNanoseconds`. Read once, when it is added; it must
    /// not change while it is pending.
    var deadlineNanos: UInt64 { get }
    /// Its position in the scheduler's heap; read and written only under the scheduler's lock.
    var deadlineSlot: Int { get set }
    /// Called once, on the timer queue, when the deadline passes (unless removed first).
    func deadlinePassed()
}

/// Every call's deadline on one `DispatchSourceTimer`: an indexed min-heap of deadlines, with the
/// timer armed for the earliest. Adding and removing are O(log n) under a lock and touch no
/// dispatch source unless the earliest deadline moves earlier, so thousands of calls in flight
/// cost no kernel timers and a finished call leaves nothing behind. Expiry runs on `queue` (the
/// timer queue), within the timer's 1 ms leeway of the deadline; items due together expire in
/// `ReplyBurst`s of `expiriesPerBurst`, so their replies leave together. Thread-safe.
final class DeadlineScheduler: Sendable {
    /// A pending item with its deadline beside it, so the heap compares plain integers: no
    /// dynamic call and no retain of the item per comparison (a pipelined client keeps a
    /// thousand calls pending, and each finished one is removed through ~10 levels).
    private struct Entry {
        let deadline: UInt64
        let item: any DeadlineExpirable
    }

    private struct State {
        var heap: [Entry] = []
        /// The deadline the timer is armed for (`.max` when idle).
        var armedFor = UInt64.max
    }

    let queue: DispatchQueue
    private let state = Locked(State())
    private nonisolated(unsafe) let timer: any DispatchSourceTimer  // DispatchSource methods are thread-safe; the existential is not marked Sendable

    init(queue: DispatchQueue) {
        self.queue = queue
        timer = DispatchSource.makeTimerSource(flags: .strict, queue: queue)
        timer.setEventHandler { [weak self] in self?.fireOnTimerQueue() }
        timer.resume()  // resumed once, for good: a suspended source must never be released
    }

    deinit {
        timer.cancel()
    }

    /// Number of pending deadlines (for tests).
    var count: Int { state.withLock { $0.heap.count } }

    func add(_ item: any DeadlineExpirable) {
        let rearm = state.withLock { state -> Bool in
            let deadline = item.deadlineNanos
            item.deadlineSlot = state.heap.count
            state.heap.append(Entry(deadline: deadline, item: item))
            Self.siftUp(&state.heap, from: state.heap.count - 1)
            guard deadline < state.armedFor else { return false }
            state.armedFor = deadline
            return true
        }
        // Arming happens on the timer queue only, so two arms can never land out of order.
        if rearm { queue.async { self.armOnTimerQueue() } }
    }

    /// Forgets `item` if it is pending. The timer stays armed; if it fires early it finds nothing due.
    func remove(_ item: any DeadlineExpirable) {
        state.withLock { state in
            let slot = item.deadlineSlot
            guard slot >= 0, slot < state.heap.count, state.heap[slot].item === item else { return }
            Self.removeAt(&state.heap, slot)
        }
    }

    // MARK: - Timer queue

    private func fireOnTimerQueue() {
        dispatchPrecondition(condition: .onQueue(queue))
        let now = Uptime.nowNanos
        let due = state.withLock { state -> [any DeadlineExpirable] in
            var due: [any DeadlineExpirable] = []
            while let first = state.heap.first, first.deadline <= now {
                due.append(first.item)
                Self.removeAt(&state.heap, 0)
            }
            state.armedFor = state.heap.first?.deadline ?? .max
            return due
        }
        armOnTimerQueue()
        for start in stride(from: 0, to: due.count, by: Self.expiriesPerBurst) {
            ReplyBurst.run {
                for item in due[start..<min(start + Self.expiriesPerBurst, due.count)] { item.deadlinePassed() }
            }
        }
    }

    /// Deadlines that pass together are settled in runs of this many, each run a `ReplyBurst`:
    /// a thousand calls timing out at once leave in a few writes, not one writer wake-up each.
    static let expiriesPerBurst = 64

    private func armOnTimerQueue() {
        dispatchPrecondition(condition: .onQueue(queue))
        let earliest = state.withLock { state -> UInt64 in
            state.armedFor = state.heap.first?.deadline ?? .max
            return state.armedFor
        }
        if earliest == .max {
            timer.schedule(deadline: .distantFuture)
        } else {
            timer.schedule(deadline: DispatchTime(uptimeNanoseconds: earliest), leeway: .milliseconds(1))
        }
    }

    // MARK: - Heap

    private static func removeAt(_ heap: inout [Entry], _ slot: Int) {
        heap[slot].item.deadlineSlot = -1
        let last = heap.removeLast()
        guard slot < heap.count else { return }
        heap[slot] = last
        last.item.deadlineSlot = slot
        siftDown(&heap, from: siftUp(&heap, from: slot))
    }

    @discardableResult
    private static func siftUp(_ heap: inout [Entry], from start: Int) -> Int {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { break }
            swapAt(&heap, child, parent)
            child = parent
        }
        return child
    }

    private static func siftDown(_ heap: inout [Entry], from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count, heap[right].deadline < heap[smallest].deadline { smallest = right }
            if smallest == parent { return }
            swapAt(&heap, parent, smallest)
            parent = smallest
        }
    }

    private static func swapAt(_ heap: inout [Entry], _ a: Int, _ b: Int) {
        heap.swapAt(a, b)
        heap[a].item.deadlineSlot = a
        heap[b].item.deadlineSlot = b
    }
}
