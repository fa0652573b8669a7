/// Every call in flight, the ids held by unanswered batches, and what waits for the number in
/// flight to fall: the engine's shared bookkeeping. A value type whose mutating operations each
/// keep its invariants, so the engine holds it in one `Locked` and every operation below is one
/// critical section; the waiters an operation returns run after the lock is released.
///
/// Requests are kept by id (for cancellation and duplicate checks), notifications by identity
/// (they have no id, but shutdown must still stop their work). A batch reserves its ids on arrival
/// and releases them only when its one reply is sent, and counts as in flight until then, so the
/// table is not drained (and the connection does not finish) while a batch reply is unsent.
/// Per-method counts for `rpc.stats` change in the same step that registers or settles a call.
struct InflightTable {
    typealias Waiter = @Sendable () -> Void

    /// At or below this many in flight, capacity waiters run (`waitForCapacity`).
    let resumeThreshold: Int
    private var byID: [RequestID: Call] = [:]
    private var withoutID: [ObjectIdentifier: Call] = [:]
    /// The ids of every open batch's requests, held until the batch's reply is sent: until then
    /// the batch's answer for an id is unsent, so the id is still in use.
    private var batchIDs: Set<RequestID> = []
    private var openBatches = 0
    private var capacityWaiters: [Waiter] = []
    private var drainWaiters: [Waiter] = []
    private(set) var stats: CallStatsTable

    init(methodCount: Int, resumeThreshold: Int) {
        self.resumeThreshold = resumeThreshold
        stats = CallStatsTable(methodCount: methodCount)
    }

    /// Calls in flight, plus batches whose reply has not been sent.
    var count: Int { byID.count + withoutID.count + openBatches }

    /// Whether a new request may not use `id` yet (protocol.md, section 2).
    func isInUse(_ id: RequestID) -> Bool { byID[id] != nil || batchIDs.contains(id) }

    /// The request in flight with this id, if any.
    func call(withID id: RequestID) -> Call? { byID[id] }

    /// Every call in flight, requests and notifications.
    var calls: [Call] { Array(byID.values) + Array(withoutID.values) }

    // MARK: - Batches

    /// Opens a batch: reserves each of `ids` that is neither in use nor repeated earlier in the
    /// batch, and returns those (the others are duplicates). The batch counts as in flight until
    /// `closeBatch`.
    mutating func openBatch(ids: [RequestID]) -> Set<RequestID> {
        var reserved = Set<RequestID>()
        for id in ids where !isInUse(id) && !reserved.contains(id) { reserved.insert(id) }
        batchIDs.formUnion(reserved)
        openBatches += 1
        return reserved
    }

    /// Closes a batch whose reply was sent: frees the ids `openBatch` reserved for it. Returns the
    /// waiters that may run now.
    mutating func closeBatch(reserved: Set<RequestID>) -> [Waiter] {
        batchIDs.subtract(reserved)
        openBatches -= 1
        return takeReadyWaiters()
    }

    // MARK: - Calls

    /// Adds a call and counts it as started. False, and nothing changes, if a request with its id
    /// is already in flight, or with `refusingBatchIDs`, if an open batch holds its id: the check
    /// on arrival of a single request (a batch's own elements hold their ids in `batchIDs`).
    mutating func register(_ call: Call, refusingBatchIDs: Bool = false) -> Bool {
        if let id = call.id {
            if refusingBatchIDs, !batchIDs.isEmpty, batchIDs.contains(id) { return false }
            // One hash of the id: the earlier call, if any, is put back.
            if let earlier = byID.updateValue(call, forKey: id) {
                byID[id] = earlier
                return false
            }
        } else {
            withoutID[ObjectIdentifier(call)] = call
        }
        stats.callStarted(slot: call.statsSlot)
        return true
    }

    /// Forgets a settled call and counts how it ended (`errorCode` nil for a result). Returns the
    /// waiters that may run now; `count` already excludes the call.
    mutating func settle(_ call: Call, errorCode: Int?, ending: CallEnding, latencyNanos: UInt64) -> [Waiter] {
        stats.callSettled(slot: call.statsSlot, errorCode: errorCode, ending: ending, latencyNanos: latencyNanos)
        if let id = call.id {
            // One hash of the id; an entry that is not this call's (never expected) stays.
            if let entry = byID.removeValue(forKey: id), entry !== call { byID[id] = entry }
        } else {
            withoutID[ObjectIdentifier(call)] = nil
        }
        return takeReadyWaiters()
    }

    // MARK: - Waiting

    /// Queues `action` until at most `resumeThreshold` calls are in flight; true, and nothing is
    /// queued, if that holds now (the caller runs it).
    mutating func waitForCapacity(_ action: @escaping Waiter) -> Bool {
        if count <= resumeThreshold { return true }
        capacityWaiters.append(action)
        return false
    }

    /// Queues `action` until nothing is in flight; true, and nothing is queued, if nothing is now.
    mutating func waitForDrain(_ action: @escaping Waiter) -> Bool {
        if count == 0 { return true }
        drainWaiters.append(action)
        return false
    }

    /// Takes the waiters whose condition now holds.
    private mutating func takeReadyWaiters() -> [Waiter] {
        var ready: [Waiter] = []
        if count <= resumeThreshold, !capacityWaiters.isEmpty {
            ready += capacityWaiters
            capacityWaiters.removeAll()
        }
        if count == 0, !drainWaiters.isEmpty {
            ready += drainWaiters
            drainWaiters.removeAll()
        }
        return ready
    }
}
