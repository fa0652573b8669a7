import Dispatch  // DispatchTime

/// A connection a `ConnectionPool` can lend: it can end a transaction left open, and say whether it
/// is still worth keeping afterwards.
protocol PooledConnection: AnyObject {
    /// Rolls back a transaction left open (a failed or interrupted one).
    func rollbackIfInTransaction()
    /// Whether the connection can serve the next caller (false once the server is gone, say).
    var isReusable: Bool { get }
}

/// Lends database connections (SQLite's, PostgreSQL's) to one caller at a time, opening them
/// lazily up to `capacity`.
///
/// Thread-safe: all state is guarded by `condition`. A caller waits while every connection is
/// lent out; a waiting caller whose interruption fires is woken by it (no polling) and stops
/// waiting with `.interrupted`. A connection comes back with no transaction open; one that is no
/// longer reusable (a lost PostgreSQL server) is dropped instead of kept, and a later borrow opens
/// a fresh one, which is how a pool reconnects after a server restart. With a `backoff`, a failed
/// opening makes the borrows that need a new connection fail at once with `ReconnectPending`
/// until the backoff's delay has passed, so a server that is down is not dialled on every call.
/// Connections close when the pool is released.
final class ConnectionPool<Connection: PooledConnection>: @unchecked Sendable {  // all mutable state is guarded by `condition`
    private let condition = PoolCondition()
    let capacity: Int
    private let openConnection: @Sendable () throws -> Connection
    /// Guarded by `condition`.
    private var idle: [Connection]
    /// Connections in existence, idle or lent. Guarded by `condition`.
    private var openCount: Int
    /// When opening may be tried again after a failure; nil: always. Guarded by `condition`.
    private var backoff: ReconnectBackoff?
    /// Whether the pool has a backoff at all: fixed at `init`, so it is read without the lock.
    private let isPaced: Bool
    private let now: @Sendable () -> UInt64

    /// A pool of at most `capacity` connections, starting with `connections`, opening more with
    /// `openConnection` when needed, paced by `backoff` after a failed opening (`now`: monotonic
    /// nanoseconds, replaceable in tests).
    init(
        capacity: Int, connections: [Connection] = [], backoff: ReconnectBackoff? = nil,
        now: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds },
        openConnection: @escaping @Sendable () throws -> Connection
    ) {
        precondition(capacity >= max(1, connections.count))
        self.capacity = capacity
        self.idle = connections
        self.openCount = connections.count
        self.backoff = backoff
        self.isPaced = backoff != nil
        self.now = now
        self.openConnection = openConnection
    }

    // MARK: - Lending

    /// Runs `body` with a connection that no one else uses meanwhile, on the caller's thread.
    ///
    /// Always inlined: the stores call it from methods generic over their result (`read<T>`), which
    /// are not specialised, so a call would run `borrow`/`giveBack` unspecialised too, looking up
    /// the pool's generic metadata and witness tables on every read (~2 k instructions of a
    /// ~55 k-instruction `catalog.get`). Inlined, they run specialised for the store's connection.
    @inline(__always)
    func withConnection<T>(interruption: (any ShopInterruption)?, _ body: (Connection) throws -> T) throws -> T {
        let connection = try borrow(interruption: interruption)
        // Not `defer`: a defer block here compiles to a closure that stays unspecialised.
        do {
            let value = try body(connection)
            giveBack(connection)
            return value
        } catch {
            giveBack(connection)
            throw error
        }
    }

    private func borrow(interruption: (any ShopInterruption)?) throws -> Connection {
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
        if let refusal = backoff?.refusal(now: now()) {
            condition.unlock()
            throw refusal
        }
        openCount += 1
        condition.unlock()
        do {
            let connection = try openConnection()
            if isPaced {
                condition.lock()
                backoff?.recordSuccess()
                condition.unlock()
            }
            return connection
        } catch {
            condition.lock()
            openCount -= 1
            backoff?.recordFailure(error, now: now())
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    private func giveBack(_ connection: Connection) {
        connection.rollbackIfInTransaction()
        let keep = connection.isReusable
        condition.lock()
        if keep {
            idle.append(connection)
        } else {
            openCount -= 1
        }
        condition.signal()
        condition.unlock()
    }
}

typealias SQLiteConnectionPool = ConnectionPool<SQLiteConnection>
typealias PostgreSQLConnectionPool = ConnectionPool<PostgreSQLConnection>
