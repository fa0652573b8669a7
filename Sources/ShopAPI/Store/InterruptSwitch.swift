import SharedSupport

/// A connection's one interrupt switch, reused by each caller in turn (no allocation per read).
/// What it does when it fires is the store's: `sqlite3_interrupt` for SQLite, `PQcancel` for
/// PostgreSQL.
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

    private let state = Locked(State())
    private let interrupt: @Sendable () -> Void

    /// `interrupt` stops the connection's running statement; it runs under the switch's lock, only
    /// while armed, and must be safe to call from any thread.
    init(interrupt: @escaping @Sendable () -> Void) {
        self.interrupt = interrupt
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
            if state.armed, state.ticket == ticket { interrupt() }
        }
    }

    func disarm() {
        state.withLock { $0.armed = false }
    }
}

// MARK: - Interruptible connections

/// A pooled connection whose running statement a cancelled call can stop.
protocol InterruptibleConnection: AnyObject {
    var interruptSwitch: InterruptSwitch { get }
}

extension InterruptibleConnection {
    /// Runs `body`; while it runs, `interruption` firing stops this connection's running statement
    /// (`SQLITE_INTERRUPT`, or SQLSTATE 57014 on PostgreSQL).
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
