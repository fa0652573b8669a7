import CSQLite

/// One SQLite connection (opened `SQLITE_OPEN_NOMUTEX`) with its prepared-statement cache.
///
/// Not thread-safe: one thread at a time. It is `@unchecked Sendable` only so it can move between
/// threads: it is reached solely through `SQLiteConnectionPool.withConnection`, which hands it to
/// one caller at a time. The exception is `interrupt()`, which SQLite allows from any thread.
/// Closes itself (and finalizes its statements) on deinit.
final class SQLiteConnection: @unchecked Sendable {  // one caller at a time, through SQLiteConnectionPool; interrupt() from any thread
    /// Milliseconds a statement waits for another connection's lock before failing with `SQLITE_BUSY`.
    static let busyTimeoutMilliseconds = 5000

    let handle: OpaquePointer
    /// Lets a cancelled call stop this connection's running statement (see `withInterrupts`).
    let interruptSwitch: InterruptSwitch
    /// Prepared statements by SQL text, reused across calls.
    private var statements: [String: SQLiteStatement] = [:]
    /// `BEGIN DEFERRED` and `COMMIT`, prepared on first use and kept out of `statements`: every
    /// read runs both, and a dictionary lookup hashes the SQL text each time.
    private var beginDeferredStatement: SQLiteStatement?
    private var commitStatement: SQLiteStatement?
    /// The `KeyLookup` statements, by raw value; prepared on first use.
    private var keyLookupStatements = [SQLiteStatement?](repeating: nil, count: KeyLookup.allCases.count)

    /// The lookups by primary key that reads run most (`catalog.get`, `inventory.check`): each
    /// keeps its prepared statement in a slot of its own, so neither its SQL text is built nor the
    /// cache's key hashed per call.
    enum KeyLookup: Int, CaseIterable {
        case productBySku
        case stockBySku
    }

    /// Opens `path` with `sqlite3_open_v2` and `flags` (`SQLITE_OPEN_NOMUTEX` is added).
    init(path: String, flags: Int32) throws(SQLiteError) {
        _ = Self.memoryStatisticsOff
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(opened)
            throw SQLiteError(code: code, message: "cannot open \(path): \(message)")
        }
        handle = opened
        nonisolated(unsafe) let interruptible = opened  // only passed to sqlite3_interrupt, which SQLite allows from any thread
        interruptSwitch = InterruptSwitch { sqlite3_interrupt(interruptible) }
        sqlite3_extended_result_codes(handle, 1)
    }

    /// SQLite's memory statistics turned off before the process's first connection (see
    /// `shop_sqlite_disable_memory_statistics`); a lazy global, so it runs once, under a lock. If
    /// something else in the process initialised SQLite first, the statistics stay on: slower, not wrong.
    private static let memoryStatisticsOff: Void = { _ = shop_sqlite_disable_memory_statistics() }()

    deinit {
        statements.removeAll()  // finalizes them before the close below
        keyLookupStatements.removeAll()
        beginDeferredStatement = nil
        commitStatement = nil
        sqlite3_close_v2(handle)
    }

    // MARK: - Running SQL

    /// Runs one or more statements that return no rows we need (DDL, pragmas). Not cached.
    func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteError(code: code, message: text)
        }
    }

    /// Runs one cached statement to completion and returns the number of rows it changed.
    @discardableResult
    func run(_ sql: String, _ arguments: any SQLiteBindable...) throws(SQLiteError) -> Int {
        try run(sql, arguments: arguments)
    }

    /// `run(_:_:)` with the arguments as an array.
    @discardableResult
    func run(_ sql: String, arguments: [any SQLiteBindable]) throws(SQLiteError) -> Int {
        let statement = try prepared(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        while try statement.step() {}
        return Int(sqlite3_changes(handle))
    }

    /// Runs one cached statement and maps each row with `row`.
    func query<Row>(_ sql: String, _ arguments: [any SQLiteBindable], row: (SQLiteStatement) throws -> Row) throws -> [Row] {
        let statement = try prepared(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        var rows: [Row] = []
        while try statement.step() {
            rows.append(try row(statement))
        }
        return rows
    }

    /// Runs one cached statement and calls `body` with each row as it is read (nothing is
    /// collected: for exports, in constant memory). An error `body` throws stops it.
    func forEachRow(_ sql: String, _ arguments: [any SQLiteBindable], _ body: (SQLiteStatement) throws -> Void) throws {
        let statement = try prepared(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        while try statement.step() {
            try body(statement)
        }
    }

    /// Runs one cached statement and maps its first row with `row`, or returns nil when there is
    /// none; stops there (for lookups by a unique key, where a second step would only find the end).
    func queryFirst<Row>(_ lookup: KeyLookup, sql: @autoclosure () -> String, _ arguments: [any SQLiteBindable], row: (SQLiteStatement) throws -> Row) throws -> Row? {
        let statement: SQLiteStatement
        if let cached = keyLookupStatements[lookup.rawValue] {
            statement = cached
        } else {
            statement = try prepare(sql())
            keyLookupStatements[lookup.rawValue] = statement
        }
        defer { statement.reset() }
        try statement.bind(arguments)
        return try statement.step() ? try row(statement) : nil
    }

    /// The cached statement for `sql`, preparing it on first use.
    func prepared(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = statements[sql] { return cached }
        let statement = try prepare(sql)
        statements[sql] = statement
        return statement
    }

    /// Runs `BEGIN DEFERRED` (a statement without parameters or rows) from its own slot.
    func beginDeferred() throws(SQLiteError) {
        try runUnbound(&beginDeferredStatement, "BEGIN DEFERRED")
    }

    /// Runs `COMMIT` from its own slot.
    func commit() throws(SQLiteError) {
        try runUnbound(&commitStatement, "COMMIT")
    }

    /// Runs the statement in `slot` (preparing `sql` into it on first use) to completion; for SQL
    /// without parameters, so there are no bindings to clear.
    private func runUnbound(_ slot: inout SQLiteStatement?, _ sql: String) throws(SQLiteError) {
        let statement: SQLiteStatement
        if let cached = slot {
            statement = cached
        } else {
            statement = try prepare(sql)
            slot = statement
        }
        defer { statement.resetKeepingBindings() }
        while try statement.step() {}
    }

    /// A statement of the caller's own, outside the cache (for work that holds its statements,
    /// like an import).
    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard code == SQLITE_OK, let prepared else { throw lastError(code) }
        return SQLiteStatement(handle: prepared)
    }

    // MARK: - State

    /// `true` when no transaction is open (also after SQLite rolled one back by itself).
    var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// The last row id inserted on this connection.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rolls back an open transaction, if any; used to leave the connection clean after a failure.
    ///
    /// Every statement still running is reset first. An interrupt (`sqlite3_interrupt`) stays in
    /// force until no statement of the connection runs, and an FTS5 table interrupted in the
    /// middle of a write can leave one of its own statements running: until it is reset, every
    /// statement, ROLLBACK included, would fail with SQLITE_INTERRUPT, and the transaction would
    /// stay open under the next caller.
    func rollbackIfInTransaction() {
        resetRunningStatements()
        if !isAutocommit { try? execute("ROLLBACK") }
    }

    /// Resets every statement of this connection that has been stepped and not reset or run to
    /// its end, ours and SQLite's own (FTS5's).
    private func resetRunningStatements() {
        var statement = sqlite3_next_stmt(handle, nil)
        while let running = statement {
            if sqlite3_stmt_busy(running) != 0 { sqlite3_reset(running) }
            statement = sqlite3_next_stmt(handle, running)
        }
    }

    private func lastError(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)))
    }
}

// MARK: - Pooling

extension SQLiteConnection: PooledConnection, InterruptibleConnection {
    /// Always kept: a SQLite connection has no server to lose, and an in-memory store's only
    /// connection *is* the database.
    var isReusable: Bool { true }
}
