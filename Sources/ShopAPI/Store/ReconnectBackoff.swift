/// When a `ConnectionPool` may try to open a connection again after opening one failed: not
/// before a delay that starts at `initialMilliseconds` after the first failure, doubles with each
/// further consecutive failure, and stays at `maximumMilliseconds`; a successful opening resets it.
///
/// A value type with no synchronisation of its own: the pool keeps it under its lock. Times are
/// monotonic nanoseconds (`DispatchTime.uptimeNanoseconds`, or a test's clock).
struct ReconnectBackoff {
    /// PostgreSQL's: 50 ms, 100 ms, … up to 2 s. A restart that takes a second costs a few
    /// attempts, and a server down for long sees one attempt per 2 s per process, not one per call.
    static let postgres = ReconnectBackoff(initialMilliseconds: 50, maximumMilliseconds: 2_000)

    let initialMilliseconds: UInt64
    let maximumMilliseconds: UInt64
    /// Consecutive failed openings.
    private(set) var failures = 0
    private var retryAtNanoseconds: UInt64 = 0
    private var lastFailure = ""

    init(initialMilliseconds: UInt64, maximumMilliseconds: UInt64) {
        precondition(initialMilliseconds > 0 && maximumMilliseconds >= initialMilliseconds)
        self.initialMilliseconds = initialMilliseconds
        self.maximumMilliseconds = maximumMilliseconds
    }

    /// Why opening must not be tried at `now`, or nil when it may be.
    func refusal(now: UInt64) -> ReconnectPending? {
        guard failures > 0, now < retryAtNanoseconds else { return nil }
        let waitMilliseconds = (retryAtNanoseconds - now + 999_999) / 1_000_000
        return ReconnectPending(lastFailure: lastFailure, retryInMilliseconds: Int(waitMilliseconds))
    }

    mutating func recordFailure(_ error: any Error, now: UInt64) {
        let shift = UInt64(min(failures, 20))
        let delay = min(maximumMilliseconds, initialMilliseconds << shift)
        failures += 1
        retryAtNanoseconds = now + delay * 1_000_000
        lastFailure = String(describing: error)
    }

    mutating func recordSuccess() {
        failures = 0
        retryAtNanoseconds = 0
        lastFailure = ""
    }
}

// MARK: - ReconnectPending

/// A pool refused to open a connection because the last attempt failed moments ago: the caller
/// gets this at once (reported as a storage error) instead of waiting for another connect.
struct ReconnectPending: Error, Sendable, CustomStringConvertible {
    /// The last opening's error.
    let lastFailure: String
    let retryInMilliseconds: Int

    var description: String {
        "\(lastFailure) (the database is unreachable; the next reconnect attempt is in \(retryInMilliseconds) ms)"
    }
}
