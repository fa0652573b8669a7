import CSQLite
import RPCServer  // Locked: a lock ThreadSanitizer can see

// MARK: - Interrupts

extension SQLiteConnection {
    /// Runs `body`; while it runs, `interruption` firing calls `sqlite3_interrupt` on this
    /// connection, so the running statement stops with `SQLITE_INTERRUPT`.
    ///
    /// Guarantee: once this returns, no interrupt from `interruption` can reach the connection
    /// (the switch is disarmed under its lock, then the handler unregistered), so a late cancel
    /// never stops the next caller's work on this pooled connection.
    func withInterrupts<T>(from interruption: (any ShopInterruption)?, _ body: () throws -> T) throws -> T {
        guard let interruption else { return try body() }
        let interruptSwitch = self.interruptSwitch
        let ticket = interruptSwitch.arm()
        let unregister = interruption.addInterruptHandler { interruptSwitch.fire(ticket) }
        defer {
            interruptSwitch.disarm()
            unregister()
        }
        return try body()
    }
}

// MARK: - InterruptSwitch

/// A connection's one interrupt switch, reused by each caller in turn (no allocation per read).
///
/// `arm()` hands out a new ticket; `fire(ticket)` interrupts only while that same ticket is armed.
/// A handler that fires late, after its caller disarmed (even once a later caller has armed), holds
/// a stale ticket and does nothing. `fire` and `disarm` take the same lock, so once `disarm`
/// returns no interrupt of that ticket is in progress or can follow. Thread-safe.
final class InterruptSwitch: Sendable {
    private struct State {
        var ticket: UInt64 = 0
        var armed = false
    }

    /// The connection's handle; only passed to `sqlite3_interrupt`, which SQLite allows from any
    /// thread, and only while armed (the connection is open until long after its last disarm).
    private nonisolated(unsafe) let handle: OpaquePointer  // only passed to sqlite3_interrupt, which SQLite allows from any thread
    private let state = Locked(State())

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    /// Arms the switch for a new caller and returns its ticket.
    func arm() -> UInt64 {
        state.withLock { state in
            state.ticket &+= 1
            state.armed = true
            return state.ticket
        }
    }

    func fire(_ ticket: UInt64) {
        state.withLock { state in
            if state.armed, state.ticket == ticket { sqlite3_interrupt(handle) }
        }
    }

    func disarm() {
        state.withLock { $0.armed = false }
    }
}
