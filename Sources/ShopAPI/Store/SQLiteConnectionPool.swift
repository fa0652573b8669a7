import Foundation

// MARK: - SQLiteConnectionPool

/// Lends connections to one caller at a time, opening them lazily up to `capacity`.
///
/// Thread-safe: all state is guarded by `condition`. A caller waits while every connection is
/// lent out; a waiting caller whose interruption fires is woken by it (no polling) and stops
/// waiting with `.interrupted`. A connection comes back with no transaction open. Connections
/// close when the pool is released.
final class SQLiteConnectionPool: @unchecked Sendable {  // all mutable state is guarded by `condition`
    private let condition = NSCondition()
    let capacity: Int
    private let openConnection: @Sendable () throws -> SQLiteConnection
    /// Guarded by `condition`.
    private var idle: [SQLiteConnection]
    /// Connections in existence, idle or lent. Guarded by `condition`.
    private var openCount: Int

    /// A pool of at most `capacity` connections, starting with `connections`, opening more with
    /// `openConnection` when needed.
    init(capacity: Int, connections: [SQLiteConnection] = [], openConnection: @escaping @Sendable () throws -> SQLiteConnection) {
        precondition(capacity >= max(1, connections.count))
        self.capacity = capacity
        self.idle = connections
        self.openCount = connections.count
        self.openConnection = openConnection
    }

    // MARK: - Lending

    /// Runs `body` with a connection that no one else uses meanwhile, on the caller's thread.
    func withConnection<T>(interruption: (any ShopInterruption)?, _ body: (SQLiteConnection) throws -> T) throws -> T {
        let connection = try borrow(interruption: interruption)
        defer { giveBack(connection) }
        return try body(connection)
    }

    private func borrow(interruption: (any ShopInterruption)?) throws -> SQLiteConnection {
        var stopWaking: (@Sendable () -> Void)?
        defer { stopWaking?() }
        condition.lock()
        while idle.isEmpty && openCount >= capacity {
            if let interruption {
                if interruption.isInterrupted {
                    condition.unlock()
                    throw ShopError.interrupted
                }
                if stopWaking == nil {
                    // About to wait: let the interruption wake this waiter. Registered outside the
                    // lock (a handler runs at once if already interrupted, and takes the lock),
                    // then everything is checked again.
                    condition.unlock()
                    stopWaking = interruption.addInterruptHandler { [condition] in
                        condition.lock()
                        condition.broadcast()
                        condition.unlock()
                    }
                    condition.lock()
                    continue
                }
            }
            condition.wait()
        }
        if let connection = idle.popLast() {
            condition.unlock()
            return connection
        }
        openCount += 1
        condition.unlock()
        do {
            return try openConnection()
        } catch {
            condition.lock()
            openCount -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    private func giveBack(_ connection: SQLiteConnection) {
        connection.rollbackIfInTransaction()
        condition.lock()
        idle.append(connection)
        condition.signal()
        condition.unlock()
    }
}
