import CPostgreSQL
#if canImport(Glibc)
import Glibc  // free
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials

/// One libpq connection (`PGconn`), with the session settings the store relies on.
///
/// Not thread-safe: one thread at a time. It is `@unchecked Sendable` only so it can move between
/// threads: it is reached solely through `PostgreSQLConnectionPool.withConnection`, which hands it
/// to one caller at a time. The exception is `interruptSwitch`, which is thread-safe (`PQcancel`
/// may be called from any thread). Closes itself on deinit.
final class PostgreSQLConnection: @unchecked Sendable {  // one caller at a time, through PostgreSQLConnectionPool; interruptSwitch from any thread
    /// Seconds libpq waits for the server when connecting, unless the URI says otherwise.
    static let connectTimeoutSeconds = 5
    /// The server stops any one statement after this long: a backup for a lost `PQcancel` for work
    /// without a deadline. A call with one sets its own per transaction (`PostgreSQLShopStore`).
    static let statementTimeoutMilliseconds = 30_000
    /// How long a statement waits for a lock another transaction holds (a row an import is
    /// changing, say) before failing with SQLSTATE 55P03, which the store reports as `.storeBusy`:
    /// SQLite's busy timeout, on PostgreSQL.
    static let lockTimeoutMilliseconds = 5_000

    /// Statements prepared on this connection at most: the store's SQL is a small fixed set (a
    /// search adds one per number of terms), so the cap only guards against surprises.
    static let preparedStatementLimit = 128

    private let handle: OpaquePointer
    /// SQL text → name of the server-side prepared statement (`s0`, `s1`, …) on this connection.
    private var prepared: [String: String] = [:]
    /// A transaction's BEGIN and settings, to be sent with its first statement
    /// (`beginWithFirstStatement`).
    private var heldBackBegin: [PostgreSQLCall]?
    /// Lets a cancelled call stop this connection's running statement (see `withInterrupts`).
    let interruptSwitch: InterruptSwitch

    // MARK: - Opening

    /// Connects to `uri` (any libpq connection URI or `key=value` string), then sets the session
    /// up: `synchronous_commit = on` (a reply after COMMIT means the order is on disk),
    /// `READ COMMITTED` for transactions without BEGIN (`inOneRoundTrip`), `statement_timeout`,
    /// `lock_timeout`, UTC time zone, and no JIT compilation (where the server has it): every
    /// statement here is short, and a plan whose cost a planner setting inflates (`enable_seqscan
    /// = off` in `shop_place_order`, the search's bitmap step) would otherwise be compiled again at
    /// each execution, tens of milliseconds for a lookup of microseconds.
    ///
    /// - Throws: `PostgreSQLError` with libpq's message (bad URI, unknown database or role,
    ///   unreachable server after `connectTimeoutSeconds`) passed through
    ///   `ConnectionStringRedaction`, since libpq quotes a malformed URI, or part of it, verbatim;
    ///   or why libpq cannot be loaded (it is loaded on the first connection; see `CPostgreSQL.h`).
    ///
    /// `readOnly` adds `default_transaction_read_only = on` for the session: every transaction
    /// that does not ask for `READ WRITE` (none here does) is read-only, so the server refuses a
    /// write (SQLSTATE 25006) whatever the shop asks.
    init(uri: String, readOnly: Bool = false) throws(PostgreSQLError) {
        if let loadError = shop_libpq_load() {
            throw PostgreSQLError(sqlState: "", message: String(cString: loadError))
        }
        // Defaults first: values in `uri` (expanded from `dbname`) override them.
        let keywords = ["connect_timeout", "application_name", "dbname"]
        let values = [String(Self.connectTimeoutSeconds), "shop-rpc", uri]
        let opened: OpaquePointer? = keywords.withCStrings { keywordPointers in
            values.withCStrings { valuePointers in
                PQconnectdbParams(keywordPointers, valuePointers, 1)
            }
        }
        guard let opened else { throw PostgreSQLError(sqlState: "", message: "out of memory") }
        guard PQstatus(opened) == CONNECTION_OK else {
            let message = ConnectionStringRedaction(connectionString: uri).redact(Self.trimmed(PQerrorMessage(opened)))
            PQfinish(opened)
            throw PostgreSQLError(sqlState: "", message: message.isEmpty ? "cannot connect" : message)
        }
        guard let cancel = PQgetCancel(opened) else {
            PQfinish(opened)
            throw PostgreSQLError(sqlState: "", message: "cannot make a cancel request object")
        }
        handle = opened
        interruptSwitch = InterruptSwitch(interrupt: PostgreSQLCancelRequest(cancel: cancel).send)
        try executeNow("SET synchronous_commit = on; SET default_transaction_isolation = 'read committed'; SET statement_timeout = \(Self.statementTimeoutMilliseconds); SET lock_timeout = \(Self.lockTimeoutMilliseconds); SET TIME ZONE 'UTC'; SET client_min_messages = warning; SELECT set_config('jit', 'off', false) FROM pg_settings WHERE name = 'jit'" + (readOnly ? "; SET default_transaction_read_only = on" : ""))
    }

    deinit {
        PQfinish(handle)
    }

    // MARK: - State

    /// `false` once the connection is lost (server restart, network): the pool drops it.
    var isHealthy: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Whether the server has closed this idle connection (it restarted, or ended the session),
    /// seen without a round trip: whatever the server sent since the last reply is read (a poll
    /// that does not wait), and the end of the stream marks the connection lost.
    func hasBeenClosedByServer() -> Bool {
        let socket = PQsocket(handle)
        guard socket >= 0 else { return true }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return !isHealthy }
        return PQconsumeInput(handle) == 0 || !isHealthy
    }

    /// `true` while a transaction is open (also a failed one awaiting ROLLBACK).
    var isInTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    // MARK: - Running SQL

    /// Runs one or more statements without parameters (DDL, `BEGIN`, `SET`), after the held-back
    /// BEGIN if there is one (`beginWithFirstStatement`).
    func execute(_ sql: String) throws {
        if let begin = takeHeldBackBegin() {
            try pipelined(begin) { _ in () }
        }
        try executeNow(sql)
    }

    private func executeNow(_ sql: String) throws(PostgreSQLError) {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result)
    }

    /// Runs one statement with `$1…$n` parameters; returns the number of rows it changed.
    @discardableResult
    func run(_ sql: String, _ arguments: [any PostgreSQLValue]) throws -> Int {
        try withResult(of: PostgreSQLCall(sql: sql, arguments: arguments)) { Int(String(cString: PQcmdTuples($0))) ?? 0 }
    }

    /// Runs one statement with `$1…$n` parameters and maps each row with `row`. `prepared: false`
    /// plans it for these parameters (see `PostgreSQLCall.prepared`).
    func query<Row>(_ sql: String, _ arguments: [any PostgreSQLValue], prepared: Bool = true, row: (PostgreSQLRow) throws -> Row) throws -> [Row] {
        try withResult(of: PostgreSQLCall(sql: sql, arguments: arguments, prepared: prepared)) { try Self.rows(of: $0, row) }
    }

    /// Runs one statement without parameters in the simple protocol (for what cannot be prepared,
    /// like `FETCH` from a cursor) and maps each row with `row`.
    func querySimple<Row>(_ sql: String, row: (PostgreSQLRow) throws -> Row) throws -> [Row] {
        if let begin = takeHeldBackBegin() {
            try pipelined(begin) { _ in () }
        }
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result)
        return try Self.rows(of: result!, row)
    }

    /// Runs `sql`, a `COPY … FROM STDIN` in COPY's text format, sending `data` (whole lines), and
    /// waits for the server to have taken every row.
    func copyIn(_ sql: String, data: [UInt8]) throws {
        if let begin = takeHeldBackBegin() {
            try pipelined(begin) { _ in () }
        }
        let start = PQexec(handle, sql)
        defer { PQclear(start) }
        guard let start, PQresultStatus(start) == PGRES_COPY_IN else {
            try check(start)
            throw PostgreSQLError(sqlState: "", message: "COPY did not start")
        }
        var sent = 0
        while sent < data.count {
            let count = min(data.count - sent, 1 << 20)
            let accepted = data.withUnsafeBytes { bytes in
                PQputCopyData(handle, bytes.baseAddress!.assumingMemoryBound(to: CChar.self) + sent, Int32(count))
            }
            guard accepted == 1 else { throw connectionError() }
            sent += count
        }
        guard PQputCopyEnd(handle, nil) == 1 else { throw connectionError() }
        var failure: (any Error)?
        while let result = PQgetResult(handle) {
            defer { PQclear(result) }
            if failure == nil {
                do { try check(result) } catch { failure = error }
            }
        }
        if let failure { throw failure }
    }

    // MARK: - Transactions

    /// Opens a transaction with `calls` (its BEGIN and settings) without a round trip of their
    /// own: they are held back and sent in the round trip of the transaction's first statement
    /// (`run`, `query`, `execute`). If no statement follows, they are never sent (`commit()`,
    /// `rollbackIfInTransaction()` then do nothing).
    func beginWithFirstStatement(_ calls: [PostgreSQLCall]) {
        heldBackBegin = calls
    }

    /// Commits the open transaction; nothing to do when its BEGIN was never sent.
    func commit() throws {
        if takeHeldBackBegin() != nil { return }
        try execute("COMMIT")
    }

    private func takeHeldBackBegin() -> [PostgreSQLCall]? {
        defer { heldBackBegin = nil }
        return heldBackBegin
    }

    /// Runs `calls` in one round trip as one transaction that commits if they all succeed (libpq's
    /// pipeline mode: each call as a prepared statement, then a Sync; the server runs the
    /// statements sent before a Sync as one implicit transaction and commits it at the Sync). On
    /// the first error the rest are skipped and nothing of any of them is kept; that error is
    /// thrown once the round trip is over. Maps each row of the last call's result with `row` (an
    /// error it throws is thrown too, but cannot undo the commit). Must not be called inside a
    /// transaction.
    func inOneRoundTrip<Row>(_ calls: [PostgreSQLCall], row: (PostgreSQLRow) throws -> Row) throws -> [Row] {
        try pipelined(calls) { try Self.rows(of: $0, row) }
    }

    /// Sends `calls` and a Sync in one round trip (pipeline mode) and reads every result; gives
    /// the last call's result to `body` (valid only during the call). At the Sync the server
    /// commits what the calls did, unless one of them opened a transaction block (BEGIN), which
    /// then stays open. The first error (the rest are skipped) is thrown after the round trip.
    private func pipelined<R>(_ calls: [PostgreSQLCall], _ body: (OpaquePointer) throws -> R) throws -> R {
        // Preparing is a round trip of its own (once per connection), so it comes first.
        let statements = try calls.map { call throws(PostgreSQLError) in
            (sql: call.sql, name: call.prepared ? try preparedName(call.sql, parameterCount: call.arguments.count) : nil,
             texts: try Self.parameterTexts(call.arguments))
        }
        guard PQenterPipelineMode(handle) == 1 else { throw connectionError() }
        // Fails only with results left unread (the connection was lost mid-way); the connection then
        // stays in pipeline mode, which makes it not reusable.
        defer { PQexitPipelineMode(handle) }
        for statement in statements {
            let sent = statement.texts.withOptionalCStrings { pointers in
                if let name = statement.name {
                    PQsendQueryPrepared(handle, name, Int32(pointers.count), pointers.baseAddress, nil, nil, 0)
                } else {
                    PQsendQueryParams(handle, statement.sql, Int32(pointers.count), nil, pointers.baseAddress, nil, nil, 0)
                }
            }
            guard sent == 1 else { throw connectionError() }
        }
        guard PQpipelineSync(handle) == 1 else { throw connectionError() }

        var value: R?
        var failure: (any Error)?
        var ended = 0  // calls whose results have all been read (libpq marks each end with a nil)
        while true {
            guard let result = PQgetResult(handle) else {
                ended += 1
                // More ends than calls, or a lost connection: the Sync's reply will not come.
                if ended > calls.count || !isHealthy { throw failure ?? connectionError() }
                continue
            }
            defer { PQclear(result) }
            switch PQresultStatus(result) {
            case PGRES_PIPELINE_SYNC:
                if let failure { throw failure }
                guard let value else { throw PostgreSQLError(sqlState: "", message: "no result for the last statement") }
                return value
            case PGRES_PIPELINE_ABORTED:
                continue  // skipped after an earlier error
            case PGRES_TUPLES_OK, PGRES_COMMAND_OK:
                guard ended == calls.count - 1, failure == nil else { continue }
                do {
                    value = try body(result)
                } catch {
                    failure = error
                }
            default:
                if failure == nil {
                    do { try check(result) } catch { failure = error }
                }
            }
        }
    }

    /// Rolls back an open transaction, if any; a failure only marks the connection unhealthy.
    func rollbackIfInTransaction() {
        guard takeHeldBackBegin() == nil, isHealthy, isInTransaction else { return }
        PQclear(PQexec(handle, "ROLLBACK"))
    }

    // MARK: - libpq plumbing

    /// Runs `call` as a statement prepared on this connection (prepared on first use: the server
    /// parses and plans each statement once per connection, not once per call), text format, in
    /// one round trip with the held-back BEGIN if there is one; gives its result to `body` (valid
    /// only during the call).
    private func withResult<R>(of call: PostgreSQLCall, _ body: (OpaquePointer) throws -> R) throws -> R {
        try pipelined((takeHeldBackBegin() ?? []) + [call], body)
    }

    /// Each row of `result` mapped with `row`.
    private static func rows<Row>(of result: OpaquePointer, _ row: (PostgreSQLRow) throws -> Row) throws -> [Row] {
        let count = PQntuples(result)
        var rows: [Row] = []
        rows.reserveCapacity(Int(count))
        for index in 0..<count {
            rows.append(try row(PostgreSQLRow(result: result, index: index)))
        }
        return rows
    }

    /// `arguments` in libpq's text format.
    private static func parameterTexts(_ arguments: [any PostgreSQLValue]) throws(PostgreSQLError) -> [String?] {
        let texts = arguments.map(\.postgresText)
        // libpq takes C strings, so a NUL would silently cut a value short; `PostgreSQLText`
        // escapes every NUL in a String, so only a broken conformer could get here.
        if texts.contains(where: { $0?.utf8.contains(0) == true }) {
            throw PostgreSQLError(sqlState: "22021", message: "a text parameter holds a NUL character")
        }
        return texts
    }

    /// The name `sql` is prepared under, preparing it now if it is new; nil past the cap (then it
    /// runs unprepared).
    private func preparedName(_ sql: String, parameterCount: Int) throws(PostgreSQLError) -> String? {
        if let name = prepared[sql] { return name }
        guard prepared.count < Self.preparedStatementLimit else { return nil }
        let name = "s\(prepared.count)"
        let result = PQprepare(handle, name, sql, Int32(parameterCount), nil)
        defer { PQclear(result) }
        try check(result)
        prepared[sql] = name
        return name
    }

    /// The connection's last error (no result to read it from: sending failed, the connection was
    /// lost).
    private func connectionError() -> PostgreSQLError {
        PostgreSQLError(sqlState: "", message: Self.trimmed(PQerrorMessage(handle)))
    }

    private func check(_ result: OpaquePointer?) throws(PostgreSQLError) {
        guard let result else { throw connectionError() }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            var message = Self.trimmed(PQresultErrorMessage(result))
            if message.isEmpty { message = Self.trimmed(PQerrorMessage(handle)) }
            let detail = PQresultErrorField(result, Int32(UInt8(ascii: "D"))).map { String(cString: $0) } ?? ""
            throw PostgreSQLError(sqlState: state, message: message, detail: detail)
        }
    }

    private static func trimmed(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "" }
        var message = Substring(String(cString: text))
        while message.first?.isWhitespace == true { message.removeFirst() }
        while message.last?.isWhitespace == true { message.removeLast() }
        return String(message)
    }
}

// MARK: - C string arrays

extension Array where Element == String {
    /// Calls `body` with a NULL-terminated array of C strings that live for the call.
    fileprivate func withCStrings<R>(_ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        map(Optional.some).withOptionalCStrings { pointers in
            var terminated = Array<UnsafePointer<CChar>?>(pointers)
            terminated.append(nil)
            return terminated.withUnsafeBufferPointer { body($0.baseAddress!) }
        }
    }
}

extension Array where Element == String? {
    /// Calls `body` with C strings for the elements (`nil` stays a null pointer) that live for the call.
    fileprivate func withOptionalCStrings<R>(_ body: (UnsafeBufferPointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies: [UnsafeMutablePointer<CChar>?] = map { $0.map { strdup($0) } }
        defer { copies.forEach { free($0) } }
        return copies.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer(body)
    }
}

// MARK: - Pooling

extension PostgreSQLConnection: PooledConnection, InterruptibleConnection {
    /// Kept only while the server is there, no transaction is left open and no pipeline is
    /// unfinished.
    var isReusable: Bool { isHealthy && !isInTransaction && PQpipelineStatus(handle) == PQ_PIPELINE_OFF }
}
