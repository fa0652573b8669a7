/// A FIFO of flight ids: the flights waiting for a slot, or the flights sent, oldest first. Popping
/// is O(1); the consumed front is dropped in bulk once it is most of the storage, so the storage
/// stays within a small multiple of what is queued however long the queue runs. A value.
struct InventoryFlightQueue: Sendable {
    private var ids: [InventoryFlight.ID] = []
    private var head = 0

    var first: InventoryFlight.ID? { head < ids.count ? ids[head] : nil }

    mutating func append(_ id: InventoryFlight.ID) {
        ids.append(id)
    }

    mutating func popFirst() -> InventoryFlight.ID? {
        guard head < ids.count else { return nil }
        let id = ids[head]
        head += 1
        if head == ids.count {
            ids.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024, head * 2 >= ids.count {
            ids.removeFirst(head)
            head = 0
        }
        return id
    }
}
