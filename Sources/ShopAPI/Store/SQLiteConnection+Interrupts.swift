import CSQLite
import Foundation

// MARK: - Interrupts

extension SQLiteConnection {
    /// Runs `body`; while it runs, `interruption` firing calls `sqlite3_interrupt` on this
    /// connection, so the running statement stops with `SQLITE_INTERRUPT`.
    ///
    /// Guarantee: once this returns, no interrupt from `interruption` can reach the connection
    /// (the handler is disarmed under a lock, then unregistered), so a late cancel never stops
    /// the next caller's work on this pooled connection.
    func withInterrupts<T>(from interruption: (any ShopInterruption)?, _ body: () throws -> T) throws -> T {
        guard let interruption else { return try body() }
        let trigger = InterruptTrigger(connection: self)
        let unregister = interruption.addInterruptHandler { trigger.fire() }
        defer {
            trigger.disarm()
            unregister()
        }
        return try body()
    }

    /// Stops the statement running on this connection. Safe from any thread.
    func interrupt() {
        sqlite3_interrupt(handle)
    }
}

// MARK: - InterruptTrigger

/// Calls `interrupt()` on a connection until disarmed. Thread-safe (one lock).
private final class InterruptTrigger: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`; `nil` once disarmed.
    private var connection: SQLiteConnection?

    init(connection: SQLiteConnection) {
        self.connection = connection
    }

    func fire() {
        lock.lock()
        defer { lock.unlock() }
        connection?.interrupt()
    }

    func disarm() {
        lock.lock()
        defer { lock.unlock() }
        connection = nil
    }
}
