/// A snapshot of what the inventory client (`HTTPInventorySource`) is doing now and has done since
/// it started. Counts since start only grow. A value: taking it copies a few counters under the
/// client's lock; reading it takes none.
public struct InventoryStats: Sendable, Equatable {
    /// Requests the client lets out at once now (the adaptive limit), and the most it ever lets out.
    public var limit: Int
    public var ceiling: Int
    /// Requests sending now, and requests waiting for a slot now.
    public var inFlight: Int
    public var queued: Int
    /// Checks that joined a pending request instead of making their own, since start.
    public var coalescedJoins: Int
    /// Checks answered at once because the service could not answer them before their deadline.
    public var shed: Int
    /// Checks answered with marked-stale levels, the levels in those answers, and the levels kept
    /// for such answers now.
    public var staleAnswers: Int
    public var staleLevels: Int
    public var staleCacheEntries: Int
    /// The circuit breaker's state now (`closed`, `open`, `halfOpen`), the times it opened, and the
    /// checks it refused while open.
    public var circuit: String
    public var circuitOpened: Int
    public var refusedWhileOpen: Int
    /// Requests sent to the service since start, and how they ended: answered, failed, cancelled
    /// (every check waiting on it left: deadline or cancel); and requests never sent because they
    /// reached the front of the queue too late for every check waiting on them.
    public var upstreamRequests: Int
    public var answered: Int
    public var upstreamFailures: Int
    public var cancelled: Int
    public var notSentTooLate: Int
    /// The latencies the adaptive limit follows (recent and baseline, whole milliseconds); nil
    /// until the first answer is measured.
    public var latencyRecentMs: Int?
    public var latencyBaselineMs: Int?
}
