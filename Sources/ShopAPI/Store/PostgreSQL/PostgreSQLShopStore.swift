import Dispatch
import FoundationEssentials
import SharedSupport

/// `ShopStore` on PostgreSQL (libpq): a pool of connections shared by reads and writes, for
/// several `shop-rpc` processes on one database.
///
/// - Reads run on the caller's thread in a `REPEATABLE READ READ ONLY` transaction (one snapshot).
/// - A transaction's BEGIN (and statement_timeout) travels in the round trip of its first
///   statement (`PostgreSQLConnection.beginWithFirstStatement`): a read of one statement costs
///   two round trips (BEGIN with the statement, COMMIT), not three.
/// - Writes run on `writeQueue` (concurrent), each in its own `READ COMMITTED` transaction; the
///   conditional stock update and the unique idempotency key keep processes from overselling or
///   placing one key twice. A serialization failure, deadlock or idempotency-key race is retried
///   (fresh transaction, at most `maxAttempts` times, never after the interruption fired), so it
///   never reaches a client; each retry is counted (`conflictRetries`) and logged at debug level.
///   Orders lock their stock rows in SKU order, so two orders never deadlock
///   (`PostgreSQLOrderFunction`). `synchronous_commit = on`: completion runs after COMMIT is durable.
/// - Orders (`placeOrder`) are one call of the server-side function `shop_place_order`
///   (`PostgreSQLOrderFunction`) in such a transaction, sent with its statement_timeout and its
///   commit in one round trip (not eight).
/// - Interruption: a read or write whose interruption fires has its running statement cancelled
///   with `PQcancel` and is rolled back (`.interrupted`, nothing changed). A write is not
///   cancelled once its COMMIT is sent (for an order: once `shop_place_order` has returned, as
///   the commit follows in the same round trip); it then completes as if not interrupted. The
///   server-side backup: each transaction of a call with a deadline sets its `statement_timeout`
///   to the time left plus `statementTimeoutMarginMilliseconds` (in the same round trip as its
///   first statement); without one the session's 30 s applies.
/// - A connection lost with the server fails the calls using it with `.storage` and is dropped;
///   the next borrow opens a new one. After a failed opening, calls that need a new connection
///   fail at once with `.storage` until `ReconnectBackoff.postgres` allows the next attempt
///   (50 ms, doubling to 2 s; reset by a success).
///
/// Thread-safe.
final class PostgreSQLShopStore: ShopStore {
    /// Runs of one transaction before a conflict is reported as `.storage`.
    static let maxAttempts = 8
    /// How long past the call's deadline the server's `statement_timeout` ends a statement that
    /// `PQcancel` did not (a lost cancel request): long enough that the cancel normally wins.
    static let statementTimeoutMarginMilliseconds: UInt64 = 250

    private let pool: PostgreSQLConnectionPool
    private let writeQueue = DispatchQueue(label: "shop-rpc.store.postgres.writes", attributes: .concurrent)
    private let counts = Locked((transactions: 0, operations: 0))
    private let retries = Locked(ConflictRetries())

    /// Transactions run again since the store opened, by the conflict that ended the attempt before.
    struct ConflictRetries: Equatable, Sendable {
        /// `40P01`: PostgreSQL's deadlock detector ended the attempt (after `deadlock_timeout`, 1 s
        /// by default).
        var deadlocks = 0
        /// `40001`: a serialization failure.
        var serializationFailures = 0
        /// `23505`: another transaction committed the same unique key (an idempotency-key race).
        var uniqueViolations = 0
        /// A pooled connection the server had closed, found before anything was sent on it.
        var staleConnections = 0

        var total: Int { deadlocks + serializationFailures + uniqueViolations + staleConnections }

        /// The count a retryable conflict (`mayRetry`) adds to.
        static func counter(for conflict: PostgreSQLError) -> WritableKeyPath<ConflictRetries, Int> {
            switch conflict.sqlState {
            case "40P01": return \.deadlocks
            case "23505": return \.uniqueViolations
            default: return \.serializationFailures
            }
        }
    }

    /// The retries so far; thread-safe.
    var conflictRetries: ConflictRetries { retries.withLock { $0 } }

    /// How a search bounds its steps (`PostgreSQLShopTransaction.searchProducts`).
    let searchLimits: PostgreSQLSearchLimits

    /// Set when the store was opened `.importedFile` on a database without the schema: each
    /// import creates it first, inside its own transaction (`PostgreSQLCatalogImport`).
    private let schemaInImport: StoreCreation?

    private init(pool: PostgreSQLConnectionPool, searchLimits: PostgreSQLSearchLimits, schemaInImport: StoreCreation? = nil) {
        self.pool = pool
        self.searchLimits = searchLimits
        self.schemaInImport = schemaInImport
    }

    // MARK: - Opening

    /// Connects to `uri` (a `postgres://` or `postgresql://` URI, anything libpq accepts), migrates
    /// and seeds the database if needed (safe when several processes start at once), and keeps up
    /// to `poolSize` connections. `readOnly` (`--read-only`) migrates and seeds nothing, and opens
    /// every session with `default_transaction_read_only = on` (`PostgreSQLConnection`): a
    /// database without the shop's schema, or with an older one, is an error then. A database
    /// without the schema opened `.importedFile` is not migrated here: its imports create the
    /// schema in their own transaction, so one that fails leaves none.
    ///
    /// - Throws: `.storage` with libpq's message when the server cannot be reached (after the
    ///   connect timeout), the database or role does not exist, or migrating fails.
    static func open(
        uri: String, poolSize: Int, creation: StoreCreation = .demoCatalog, readOnly: Bool = false,
        searchLimits: PostgreSQLSearchLimits = PostgreSQLSearchLimits()
    ) throws(ShopError) -> PostgreSQLShopStore {
        do {
            let first = try PostgreSQLConnection(uri: uri, readOnly: readOnly)
            var schemaInImport: StoreCreation?
            if readOnly {
                try PostgreSQLSchema.checkReadOnly(first)
            } else if creation == .importedFile, try PostgreSQLSchema.currentVersion(first) == 0 {
                schemaInImport = creation
            } else {
                try PostgreSQLSchema.migrate(first, creation: creation)
            }
            let pool = PostgreSQLConnectionPool(capacity: max(1, poolSize), connections: [first], backoff: .postgres) {
                try PostgreSQLConnection(uri: uri, readOnly: readOnly)
            }
            return PostgreSQLShopStore(pool: pool, searchLimits: searchLimits, schemaInImport: schemaInImport)
        } catch {
            throw ShopError(postgresError: error, interruption: nil)
        }
    }

    // MARK: - ShopStore

    func read<T>(interruption: (any ShopInterruption)?, _ body: (any ShopReadTransaction) throws -> T) throws(ShopError) -> T {
        do {
            if interruption?.isInterrupted == true { throw ShopError.interrupted }
            return try inTransaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", interruption: interruption) { connection in
                try body(PostgreSQLShopTransaction(connection: connection, interruption: interruption, searchLimits: searchLimits))
            }
        } catch {
            throw ShopError(postgresError: error, interruption: interruption)
        }
    }

    func write<T: Sendable>(
        interruption: (any ShopInterruption)?,
        callbackQueue: DispatchQueue,
        _ body: @escaping @Sendable (any ShopWriteTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, ShopError>) -> Void
    ) {
        onWriteQueue(interruption: interruption, callbackQueue: callbackQueue, completion: completion) { [self] in
            try inTransaction(Self.writeBegin, interruption: interruption) { connection in
                try body(PostgreSQLShopTransaction(connection: connection, interruption: interruption, searchLimits: searchLimits))
            }
        }
    }

    /// The rules of `placement` in one call of `shop_place_order` (`PostgreSQLOrderFunction`),
    /// sent after its statement_timeout and followed by the commit in one round trip
    /// (`inOneRoundTrip`), with the same isolation, retries, cancellation and durability as
    /// `write`.
    func placeOrder(
        _ placement: OrderPlacement,
        interruption: (any ShopInterruption)?,
        callbackQueue: DispatchQueue,
        completion: @escaping @Sendable (Result<Order, ShopError>) -> Void
    ) {
        onWriteQueue(interruption: interruption, callbackQueue: callbackQueue, completion: completion) { [self] in
            try withRetries(interruption: interruption) { connection in
                let calls = [Self.statementTimeoutSetting(deadline: interruption?.deadline), PostgreSQLOrderFunction.call(placement)].compactMap { $0 }
                let rows = try connection.withInterrupts(from: interruption) {
                    do {
                        return try connection.inOneRoundTrip(calls, row: PostgreSQLOrderFunction.Row.init)
                    } catch let error as PostgreSQLError {
                        throw PostgreSQLOrderFunction.shopError(error, placement: placement) ?? error
                    }
                }
                return try PostgreSQLOrderFunction.order(from: rows)
            }
        }
    }

    /// What every write shares: on the write queue, skipped if already interrupted, counted as one
    /// transaction when `transaction` commits, its outcome (errors as `ShopError`) delivered once on
    /// `callbackQueue`.
    private func onWriteQueue<T: Sendable>(
        interruption: (any ShopInterruption)?,
        callbackQueue: DispatchQueue,
        completion: @escaping @Sendable (Result<T, ShopError>) -> Void,
        _ transaction: @escaping @Sendable () throws -> T
    ) {
        writeQueue.async { [self] in
            let result: Result<T, ShopError>
            do {
                if interruption?.isInterrupted == true { throw ShopError.interrupted }
                let value = try transaction()
                counts.withLock {
                    $0.transactions += 1
                    $0.operations += 1
                }
                result = .success(value)
            } catch {
                result = .failure(ShopError(postgresError: error, interruption: interruption))
            }
            callbackQueue.async { completion(result) }
        }
    }

    // MARK: - Catalog files

    /// On a pooled connection (`PostgreSQLCatalogImport`).
    func importCatalog<Source: CatalogRowSource>(
        from source: inout Source, options: CatalogImportOptions, stockChanges: StockChangeCause,
        interruption: (any ShopInterruption)?, progress: (CatalogImportProgress) -> Void
    ) throws(ShopError) -> CatalogImportOutcome {
        do {
            return try pool.withConnection(interruption: interruption) { connection in
                if interruption?.isInterrupted == true { throw ShopError.interrupted }
                return try connection.withInterrupts(from: interruption) {
                    try PostgreSQLCatalogImport(connection: connection, options: options, stockChanges: stockChanges, interruption: interruption,
                                                schemaFirst: schemaInImport)
                        .run(&source, progress: progress)
                }
            }
        } catch {
            throw ShopError(postgresError: error, interruption: interruption)
        }
    }

    func exportProducts(_ body: (Product, ProductStatus, Int) throws -> Void) throws {
        try onExportCursor(
            """
            SELECT \(ShopRows.storedProductColumns) FROM products p LEFT JOIN stock s ON s.sku = p.sku
            WHERE p.status <> 'archived' ORDER BY p.product_seq, p.seq
            """
        ) { row in
            let stored = ShopRows.storedProduct(row)
            try body(stored.product, stored.status, stored.stock)
        }
    }

    func exportOrders(since: String?, _ body: (Order) throws -> Void) throws {
        var assembler = ShopRows.OrderAssembler()
        let sinceLiteral = PostgreSQLText.escaped(since ?? "").replacing("'", with: "''")
        try onExportCursor(
            """
            SELECT o.seq, o.order_id, o.cart_id, o.total_cents, o.currency, o.status, o.created_at, o.cancelled_at, o.cancel_reason,
                   l.sku, l.quantity, l.unit_price_cents
            FROM orders o JOIN order_lines l ON l.order_seq = o.seq WHERE o.created_at >= '\(sinceLiteral)' ORDER BY o.seq, l.line_no
            """
        ) { row in
            if let order = assembler.add(header: ShopRows.orderHeader(row), line: ShopRows.line(ShopRows.Offset(row, by: 9))) {
                try body(order)
            }
        }
        if let order = assembler.finish() { try body(order) }
    }

    /// Rows fetched from a cursor over `query` a batch at a time, in one read-only snapshot, each
    /// handed to `body` (constant memory); store errors as `ShopError`, `body`'s own as they are.
    func exportStockLedger(since: String?, _ body: (StockMovement) throws -> Void) throws {
        let sinceLiteral = PostgreSQLText.escaped(since ?? "").replacing("'", with: "''")
        try onExportCursor(
            "SELECT \(ShopRows.movementColumns) FROM stock_ledger WHERE at >= '\(sinceLiteral)' COLLATE \"C\" ORDER BY seq"
        ) { row in try body(ShopRows.movement(row)) }
    }

    private func onExportCursor(_ query: String, _ body: (PostgreSQLRow) throws -> Void) throws {
        do {
            try pool.withConnection(interruption: nil) { connection in
                try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL statement_timeout = 0")
                defer { connection.rollbackIfInTransaction() }
                try connection.execute("DECLARE shop_export NO SCROLL CURSOR FOR \(query)")
                while true {
                    var fetched = 0
                    _ = try connection.querySimple("FETCH 1000 FROM shop_export") { row in
                        fetched += 1
                        try body(row)
                    }
                    if fetched == 0 { break }
                }
            }
        } catch let error as PostgreSQLError {
            throw ShopError(postgresError: error, interruption: nil)
        }
    }

    var stats: (transactions: Int, operations: Int) {
        counts.withLock { $0 }
    }

    var readConcurrency: Int { pool.capacity }

    // MARK: - Transactions

    /// Runs `body` in a transaction opened with `begin` and commits it, on a pooled connection,
    /// on the caller's thread; runs it again on a conflict (see the type's doc). Statements are
    /// cancelled when `interruption` fires, up to (not including) COMMIT.
    private func inTransaction<T>(
        _ begin: String,
        interruption: (any ShopInterruption)?,
        _ body: (PostgreSQLConnection) throws -> T
    ) throws -> T {
        try withRetries(interruption: interruption) { connection in
            let value = try connection.withInterrupts(from: interruption) {
                connection.beginWithFirstStatement(Self.beginning(begin, deadline: interruption?.deadline))
                return try body(connection)
            }
            // A cancel that landed after the last statement must still undo the write.
            if interruption?.isInterrupted == true { throw ShopError.interrupted }
            try connection.commit()
            return value
        }
    }

    /// Runs `transaction` on a pooled connection, on the caller's thread, and again on a conflict
    /// (see the type's doc). A pooled connection the server has already closed (found without a
    /// round trip) is replaced before `transaction` runs, and `transaction` runs again on another;
    /// a connection lost during `transaction` fails it.
    private func withRetries<T>(interruption: (any ShopInterruption)?, _ transaction: (PostgreSQLConnection) throws -> T) throws -> T {
        var attempt = 1
        while true {
            do {
                return try pool.withConnection(interruption: interruption) { connection in
                    if connection.hasBeenClosedByServer() {
                        throw StaleConnection(cause: PostgreSQLError(sqlState: "", message: "the server closed the connection"))
                    }
                    return try transaction(connection)
                }
            } catch let error as PostgreSQLError where Self.mayRetry(error) && attempt < Self.maxAttempts && interruption?.isInterrupted != true {
                attempt += 1
                countRetry(ConflictRetries.counter(for: error), attempt: attempt, cause: "SQLSTATE \(error.sqlState)")
            } catch let stale as StaleConnection {
                // Nothing was kept; the pool has dropped the connection. Again, on a fresh one.
                guard attempt < Self.maxAttempts, interruption?.isInterrupted != true else { throw stale.cause }
                attempt += 1
                countRetry(\.staleConnections, attempt: attempt, cause: "a connection the server had closed")
            }
        }
    }

    private func countRetry(_ counter: WritableKeyPath<ConflictRetries, Int>, attempt: Int, cause: String) {
        retries.withLock { $0[keyPath: counter] += 1 }
        StderrLog.debug("postgres: transaction retried after \(cause) (attempt \(attempt) of \(Self.maxAttempts))")
    }

    /// Opens every write transaction but an order's, which has no BEGIN (`inOneRoundTrip`; the
    /// session's default isolation is the same, `PostgreSQLConnection`).
    static let writeBegin = "BEGIN ISOLATION LEVEL READ COMMITTED"

    /// `begin`, followed by the transaction's `statementTimeoutSetting` if it has one.
    private static func beginning(_ begin: String, deadline: DispatchTime?) -> [PostgreSQLCall] {
        [PostgreSQLCall(sql: begin, arguments: []), statementTimeoutSetting(deadline: deadline)].compactMap { $0 }
    }

    /// Sets `statement_timeout` for the rest of the transaction so that a statement ends at most
    /// `statementTimeoutMarginMilliseconds` after `deadline` would be reached from now; nil
    /// without a deadline (the session's applies).
    private static func statementTimeoutSetting(deadline: DispatchTime?) -> PostgreSQLCall? {
        guard let deadline, deadline != .distantFuture else { return nil }
        let now = DispatchTime.now()
        let left = deadline > now ? (deadline.uptimeNanoseconds - now.uptimeNanoseconds) / 1_000_000 : 0
        let timeout = min(left + statementTimeoutMarginMilliseconds, UInt64(Int32.max))
        return PostgreSQLCall(sql: "SELECT set_config('statement_timeout', $1, true)", arguments: [String(timeout)])
    }

    /// A conflict with another transaction: the rerun sees its outcome (for a duplicate
    /// idempotency key, the order the other transaction placed).
    private static func mayRetry(_ error: PostgreSQLError) -> Bool {
        error.isRetryableConflict || error.isUniqueViolation
    }

    /// An idle pooled connection turned out to be lost (e.g. the server restarted) before anything
    /// was sent on it, so the transaction can run on another connection.
    private struct StaleConnection: Error {
        let cause: any Error
    }
}
