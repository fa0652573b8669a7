import Dispatch
import Synchronization
import SharedSupport

/// Something with a deadline that the scheduler can expire: subclass it (a `Call`) and override
/// `deadlinePassed`. A class, not a protocol, so the scheduler's heap holds plain references and
/// moves them with direct stores to `deadlineSlot`: through an existential, each of the ~10 swaps
/// of removing a settled call from a heap of a thousand cost a retain, a release and two
/// witness-table calls (about 1 k instructions a pipelined catalog.get, and a contended
/// reference count on the cores that settle calls).
class DeadlineItem: @unchecked Sendable {  // deadlineSlot is read and written only under DeadlineScheduler's lock (a Locked, which TSan sees)
    /// When it expires, in `DispatchTime.uptimeNanoseconds`.
    let deadlineNanos: UInt64
    /// Its position in the scheduler's heap (-1 when not pending); the scheduler's alone.
    final var deadlineSlot = -1

    init(deadlineNanos: UInt64) {
        self.deadlineNanos = deadlineNanos
    }

    /// Called once, on the timer queue, when the deadline passes (unless removed first).
    func deadlinePassed() {}
}

/// Every call's deadline on one `DispatchSourceTimer`: a min-heap of deadlines, with the timer
/// armed for the earliest. Adding is O(log n), and O(1) for the usual call, whose deadline is the
/// latest yet; it touches no dispatch source unless the earliest deadline moves earlier, so
/// thousands of calls in flight cost no kernel timers. Expiry runs on `queue` (the timer queue),
/// within the timer's 1 ms leeway of the deadline; items due together expire in `ReplyBurst`s of
/// `expiriesPerBurst`, so their replies leave together. Thread-safe.
///
/// **Removing is O(1).** A settled call's entry keeps its place in the heap as a tombstone (its
/// deadline, no item), so settling touches one entry and releases the call at once, instead of
/// sifting the heap through ~10 levels and writing the slot of every call moved (under pipelined
/// load, with a thousand in flight, that costs ~1 k instructions and ~20 other calls' cache lines per
/// settle, on the threads that settle while the reader adds). Tombstones leave when the timer
/// passes them, or all at once when they outnumber the live entries (and 64), so the heap holds at
/// most twice the calls in flight plus 64 entries, and no call outlives its settling.
final class DeadlineScheduler: Sendable {
    /// A pending item with its deadline beside it, so the heap compares plain integers. `item` is
    /// nil once removed (a tombstone).
    private struct Entry {
        let deadline: UInt64
        var item: DeadlineItem?
    }

    private struct State {
        var heap: [Entry] = []
        /// Tombstones in `heap`.
        var removed = 0
        /// The deadline the timer is armed for (`.max` when idle).
        var armedFor = UInt64.max

        var pending: Int { heap.count - removed }
    }

    /// Tombstones tolerated beyond the live entries before the heap is rebuilt without them.
    static let tombstoneSlack = 64

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
    var count: Int { state.withLock { $0.pending } }

    /// Entries in the heap, tombstones included (for tests).
    var entryCount: Int { state.withLock { $0.heap.count } }

    func add(_ item: DeadlineItem) {
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

    /// Forgets `item` if it is pending: its entry becomes a tombstone. The timer stays armed; if it
    /// fires early it finds nothing due.
    func remove(_ item: DeadlineItem) {
        state.withLock { state in
            let slot = item.deadlineSlot
            guard slot >= 0, slot < state.heap.count, state.heap[slot].item === item else { return }
            state.heap[slot].item = nil
            item.deadlineSlot = -1
            state.removed += 1
            if state.removed > state.pending + Self.tombstoneSlack { Self.compact(&state) }
        }
    }

    // MARK: - Timer queue

    private func fireOnTimerQueue() {
        dispatchPrecondition(condition: .onQueue(queue))
        let now = Uptime.nowNanos
        let due = state.withLock { state -> [DeadlineItem] in
            var due: [DeadlineItem] = []
            while let first = state.heap.first, first.deadline <= now {
                if let item = first.item {
                    item.deadlineSlot = -1
                    due.append(item)
                } else {
                    state.removed -= 1
                }
                Self.removeRoot(&state.heap)
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

    /// Rebuilds the heap from its live entries (O(n), once per as many removals).
    private static func compact(_ state: inout State) {
        state.heap.removeAll { $0.item == nil }
        state.removed = 0
        for slot in state.heap.indices { state.heap[slot].item?.deadlineSlot = slot }
        var parent = state.heap.count / 2 - 1
        while parent >= 0 {
            siftDown(&state.heap, from: parent)
            parent -= 1
        }
    }

    private static func removeRoot(_ heap: inout [Entry]) {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        last.item?.deadlineSlot = 0
        siftDown(&heap, from: 0)
    }

    private static func siftUp(_ heap: inout [Entry], from start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { break }
            swapAt(&heap, child, parent)
            child = parent
        }
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
        heap[a].item?.deadlineSlot = a
        heap[b].item?.deadlineSlot = b
    }
}
