/// When the flight table wants to be woken, one time per check (its stale answer shortly before
/// its deadline), and the time the owner's one timer is armed for. Kept sorted by time (equal
/// times in the order added): checks mostly arrive with the same budget, so a new time goes at the
/// end, and the due ones leave from the front together. A check answered first is not searched
/// for; its entry is dropped when it reaches the front. A value; it reads no clock.
struct InventoryWakeUps: Sendable {
    private struct Entry: Sendable {
        let at: UInt64
        let check: InventoryPendingCheck.ID
    }

    private var entries: [Entry] = []
    /// The time the owner's timer is armed for, as far as the table knows (nil: not armed).
    private(set) var armedAt: UInt64?

    var count: Int { entries.count }

    mutating func add(at time: UInt64, for check: InventoryPendingCheck.ID) {
        var low = entries.count
        if let last = entries.last, last.at > time {  // out of order: find its place
            low = 0
            var high = entries.count
            while low < high {
                let middle = (low + high) / 2
                if entries[middle].at <= time { low = middle + 1 } else { high = middle }
            }
        }
        entries.insert(Entry(at: time, check: check), at: low)
    }

    /// The timer fired at `now`: it is not armed any more. Removes and returns the checks whose
    /// wake-up is due, earliest first.
    mutating func timerFired(now: UInt64) -> [InventoryPendingCheck.ID] {
        armedAt = nil
        let due = entries.prefix { $0.at <= now }
        defer { entries.removeFirst(due.count) }
        return due.map(\.check)
    }

    /// The time the timer must be armed for now, if it must be armed again: the earliest wake-up of
    /// a check that `isWaiting`, when the timer is not armed or armed for later. Entries of checks
    /// that no longer wait are dropped from the front on the way.
    mutating func timeToArm(isWaiting: (InventoryPendingCheck.ID) -> Bool) -> UInt64? {
        entries.removeFirst(entries.prefix { !isWaiting($0.check) }.count)
        guard let next = entries.first?.at, armedAt.map({ next < $0 }) ?? true else { return nil }
        armedAt = next
        return next
    }
}
