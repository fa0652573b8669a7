/// When the flight table wants to be woken, one time per check (its stale answer shortly before
/// its deadline), and the time the owner's one timer is armed for. A binary min-heap: adding is
/// O(log n); a check that is answered first is not searched for, its entry is dropped when it
/// reaches the top. A value; it reads no clock.
struct InventoryWakeUps: Sendable {
    private struct Entry: Sendable {
        let at: UInt64
        let check: InventoryPendingCheck.ID
    }

    private var heap: [Entry] = []
    /// The time the owner's timer is armed for, as far as the table knows (nil: not armed).
    private(set) var armedAt: UInt64?

    var count: Int { heap.count }

    mutating func add(at time: UInt64, for check: InventoryPendingCheck.ID) {
        heap.append(Entry(at: time, check: check))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].at < heap[parent].at else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// The timer fired: it is not armed any more.
    mutating func timerFired() {
        armedAt = nil
    }

    /// Removes and returns the check of the earliest wake-up due at `now`, if any.
    mutating func popDue(now: UInt64) -> InventoryPendingCheck.ID? {
        guard let top = heap.first, top.at <= now else { return nil }
        return removeTop().check
    }

    /// The time the timer must be armed for now, if it must be armed again: the earliest wake-up of
    /// a check that `isWaiting`, when the timer is not armed or armed for later. Entries of checks
    /// that no longer wait are dropped from the top on the way.
    mutating func timeToArm(isWaiting: (InventoryPendingCheck.ID) -> Bool) -> UInt64? {
        while let top = heap.first, !isWaiting(top.check) {
            _ = removeTop()
        }
        guard let next = heap.first?.at, armedAt.map({ next < $0 }) ?? true else { return nil }
        armedAt = next
        return next
    }

    private mutating func removeTop() -> Entry {
        let top = heap[0]
        let last = heap.removeLast()
        guard !heap.isEmpty else { return top }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].at < heap[smallest].at { smallest = left }
            if right < heap.count, heap[right].at < heap[smallest].at { smallest = right }
            guard smallest != parent else { return top }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
