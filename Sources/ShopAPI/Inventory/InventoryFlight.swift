/// One upstream request, `GET /stock?sku=…` for `skus`, and the checks waiting on it (request
/// coalescing: a check joins the flight already pending for a SKU instead of asking again), as the
/// flight table keeps it. A value: `InventoryFlightTable` owns every flight and changes it only
/// through its events.
///
/// Goes `queued` (waiting for a slot) → `sent` (the request is out) → `cancelling` (no check waits
/// on it any more and its cancel was asked), never back. A queued flight nobody waits on is
/// withdrawn, and one that reaches the front of the queue too late is never sent; either way it
/// leaves the table at once. A sent one leaves when its end is reported.
struct InventoryFlight: Sendable, Equatable {
    typealias ID = InventoryTableID<InventoryFlight>

    enum State: Equatable, Sendable {
        /// Waiting for a slot; checks may still add SKUs.
        case queued
        /// The request went out at `atNs`.
        case sent(atNs: UInt64)
        /// Sent at `sentAtNs`, then left by its last check: its cancel was asked and its end is
        /// awaited. `timeUp`: that check left because its time was up (its deadline, or the stale
        /// answer given shortly before it), not because its client cancelled it; the request then
        /// counts against the service (a latency sample, a failure for the circuit breaker).
        case cancelling(sentAtNs: UInt64, timeUp: Bool)
    }

    let id: ID
    /// The distinct SKUs asked, in order of first appearance; grows only while queued (`add`).
    private(set) var skus: [String]
    /// Whether the circuit breaker let this request through as its half-open probe.
    let probe: Bool
    var state = State.queued
    /// The checks waiting on it (`InventoryFlightTable.attach`/`detach` keep both sides in step).
    var waiters: Set<InventoryPendingCheck.ID> = []

    init(id: ID, skus: [String], probe: Bool) {
        self.id = id
        self.skus = skus
        self.probe = probe
    }

    /// Adds `more` (SKUs no pending flight covers) to a flight still queued.
    mutating func add(_ more: [String]) {
        precondition(state == .queued, "a flight's SKUs change only while it is queued")
        skus += more
    }

    /// When its request went out, once it has.
    var sentAtNs: UInt64? {
        switch state {
        case .queued: return nil
        case let .sent(atNs), let .cancelling(atNs, _): return atNs
        }
    }
}
