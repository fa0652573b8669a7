import Foundation

// MARK: - SQLiteConnectionPool

/// Lends connections to one caller at a time, opening them lazily up to `capacity`.
///
/// Thread-safe: all state is guarded by `condition`. A caller waits while every connection is
/// lent out; a waiting caller whose interruption fires stops waiting with `.interrupted`.
/// A connection comes back with no transaction open. Connections close when the pool is released.
final class SQLiteConnectionPool: @unchecked Sendable {
    /// How often a waiting caller re-checks its interruption.
    private static let interruptionPollInterval: TimeInterval = 0.01

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
        condition.lock()
        while idle.isEmpty && openCount >= capacity {
            guard let interruption else {
                condition.wait()
                continue
            }
            if interruption.isInterrupted {
                condition.unlock()
                throw ShopError.interrupted
            }
            _ = condition.wait(until: Date(timeIntervalSinceNow: Self.interruptionPollInterval))
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
