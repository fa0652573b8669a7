import CPostgreSQL
import RPCServer  // Locked: a lock ThreadSanitizer can see

// MARK: - PostgreSQLCancelSwitch

/// A connection's one cancel switch, reused by each caller in turn: the PostgreSQL twin of
/// `InterruptSwitch`.
///
/// `arm()` hands out a new ticket; `fire(ticket)` sends `PQcancel` only while that same ticket is
/// armed. A handler that fires late, after its caller disarmed (even once a later caller has
/// armed), holds a stale ticket and does nothing. `fire` and `disarm` take the same lock, so once
/// `disarm` returns no cancel of that ticket is being sent or can follow. Thread-safe.
final class PostgreSQLCancelSwitch: Sendable {
    private struct State {
        var ticket: UInt64 = 0
        var armed = false
    }

    /// The connection's cancel object (`PQgetCancel`); only passed to `PQcancel`, which libpq
    /// allows from any thread, and only under `state`'s lock. Freed on deinit.
    private nonisolated(unsafe) let cancel: OpaquePointer  // only used under `state`'s lock, by PQcancel (thread-safe)
    private let state = Locked(State())

    init(cancel: OpaquePointer) {
        self.cancel = cancel
    }

    deinit {
        PQfreeCancel(cancel)
    }

    /// Arms the switch for a new caller and returns its ticket.
    func arm() -> UInt64 {
        state.withLock { state in
            state.ticket &+= 1
            state.armed = true
            return state.ticket
        }
    }

    /// Asks the server to cancel the connection's running statement, if `ticket` is still armed.
    /// Blocks while the cancel request is delivered (a short extra connection to the server).
    func fire(_ ticket: UInt64) {
        state.withLock { state in
            guard state.armed, state.ticket == ticket else { return }
            var message = [CChar](repeating: 0, count: 256)
            _ = PQcancel(cancel, &message, Int32(message.count))
        }
    }

    func disarm() {
        state.withLock { $0.armed = false }
    }
}

// MARK: - Cancels

extension PostgreSQLConnection {
    /// Runs `body`; while it runs, `interruption` firing sends `PQcancel` for this connection, so
    /// the running statement stops with SQLSTATE 57014.
    ///
    /// Guarantee: once this returns, no cancel from `interruption` can reach the connection (the
    /// switch is disarmed under its lock, then the handler unregistered), so a late cancel never
    /// stops the next caller's work on this pooled connection.
    func withCancels<T>(from interruption: (any ShopInterruption)?, _ body: () throws -> T) throws -> T {
        guard let interruption else { return try body() }
        let cancelSwitch = self.cancelSwitch
        let ticket = cancelSwitch.arm()
        let unregister = interruption.addInterruptHandler { cancelSwitch.fire(ticket) }
        defer {
            cancelSwitch.disarm()
            unregister()
        }
        return try body()
    }
}
