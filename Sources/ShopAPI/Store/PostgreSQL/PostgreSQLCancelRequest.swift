import CPostgreSQL

/// A connection's cancel object (`PQgetCancel`): `send()` asks the server to cancel the running
/// statement, over a short extra connection, blocking until it is delivered. libpq allows
/// `PQcancel` from any thread; the connection's `InterruptSwitch` calls it under its lock, one at a
/// time. Frees the object on deinit.
final class PostgreSQLCancelRequest: Sendable {
    private nonisolated(unsafe) let cancel: OpaquePointer  // only passed to PQcancel (thread-safe) and freed on deinit

    init(cancel: OpaquePointer) {
        self.cancel = cancel
    }

    deinit {
        PQfreeCancel(cancel)
    }

    func send() {
        var message = [CChar](repeating: 0, count: 256)
        _ = PQcancel(cancel, &message, Int32(message.count))
    }
}
