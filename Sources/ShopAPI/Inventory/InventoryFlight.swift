import Dispatch

// MARK: - InventoryFlight

/// One upstream request, `GET /stock?sku=…` for `skus`, and the checks waiting on it (request
/// coalescing: a check joins the flight already pending for a SKU instead of asking again).
///
/// Goes `queued` (waiting at the admission gate) → `sent` (the HTTP request is out) → `finished`
/// (answered, failed, cancelled, or dropped before it was sent), never back. While it has waiters
/// it stays wanted; when the last one leaves, a queued flight is withdrawn and a sent one's request
/// is cancelled (its connection closed).
///
/// `@unchecked Sendable`: every `var` is read and written only under `HTTPInventorySource`'s
/// table lock; the `let`s are set before the flight is shared.
final class InventoryFlight: @unchecked Sendable {
    enum Phase {
        case queued
        case sent(atNs: UInt64, request: InventoryHTTPSession.Request)
        case finished
    }

    /// The distinct SKUs asked, in order of first appearance. While the flight is queued, a new
    /// check may add SKUs of its own (`add(_:)`); once sent, it never changes. The request's URL is
    /// built from it when the flight is sent.
    private(set) var skus: [String]
    let ticket: InventoryAdmissionGate.Ticket
    /// Whether the circuit breaker let this request through as its half-open probe.
    let probe: Bool

    var phase = Phase.queued
    var waiters: [ObjectIdentifier: InventoryPendingCheck] = [:]
    /// The last waiter left because its time was up (its deadline, or the stale answer given just
    /// before it), not because its client cancelled: a request cancelled then counts against the
    /// service (circuit breaker, latency sample).
    var abandonedForTime = false

    init(skus: [String], ticket: InventoryAdmissionGate.Ticket, probe: Bool) {
        self.skus = skus
        self.ticket = ticket
        self.probe = probe
    }

    var id: ObjectIdentifier { ObjectIdentifier(self) }

    /// Adds `more` (SKUs no pending request covers) to a flight still queued.
    func add(_ more: [String]) {
        precondition(isQueued, "a flight's SKUs change only while it is queued")
        skus += more
    }

    var isQueued: Bool {
        if case .queued = phase { return true }
        return false
    }

    /// When the sent request started, if it has been sent and not finished.
    var sentAtNs: UInt64? {
        if case let .sent(atNs, _) = phase { return atNs }
        return nil
    }
}

// MARK: - InventoryPendingCheck

/// One `inventory.check` call while it waits for levels: which of its SKUs have a level
/// (`found`, fresh or marked stale), which still lack one (`missing`), and the flights it waits
/// on. Completes **exactly once**: `completion` is taken (set to nil) by whoever finishes it,
/// under the table lock, and called after the lock is released.
///
/// `@unchecked Sendable`: every `var` is read and written only under `HTTPInventorySource`'s
/// table lock; the `let`s are set before the check is shared.
final class InventoryPendingCheck: @unchecked Sendable {
    typealias Completion = @Sendable (Result<InventoryLevels, ShopError>) -> Void

    /// As asked: request order, duplicates kept.
    let skus: [String]
    let deadline: DispatchTime
    /// After this a request sent for it alone is not worth sending (`HTTPInventorySource.latestStart`).
    let latestStart: DispatchTime

    var found: [String: StockLevel] = [:]
    var missing: Set<String>
    var flights: [ObjectIdentifier: InventoryFlight] = [:]
    var completion: Completion?
    /// Unregisters the interruption handler; called when the check finishes.
    var interruptRegistration: (@Sendable () -> Void)?

    init(skus: [String], distinct: [String], deadline: DispatchTime, latestStart: DispatchTime, completion: @escaping Completion) {
        self.skus = skus
        missing = Set(distinct)
        self.deadline = deadline
        self.latestStart = latestStart
        self.completion = completion
    }

    var id: ObjectIdentifier { ObjectIdentifier(self) }

    /// The answer once every SKU has a level: one per asked SKU, in request order.
    var levels: InventoryLevels {
        InventoryLevels(levels: skus.compactMap { found[$0] })
    }
}
