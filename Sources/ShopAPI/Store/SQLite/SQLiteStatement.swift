import CSQLite

/// One prepared statement, owned and cached by its `SQLiteConnection`.
///
/// Not thread-safe: used only by the thread currently holding its connection. Always `reset()`
/// after use (the connection's helpers do), so a cached statement never holds a read lock.
final class SQLiteStatement {
    private let handle: OpaquePointer

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        sqlite3_finalize(handle)
    }

    // MARK: - Running

    /// Binds `arguments` to parameters 1, 2, … in order.
    func bind(_ arguments: [any SQLiteBindable]) throws(SQLiteError) {
        for (offset, argument) in arguments.enumerated() {
            let code = argument.bind(to: handle, at: Int32(offset + 1))
            guard code == SQLITE_OK else { throw error(code) }
        }
    }

    /// Binds `value` to parameter `index` (1-based); SQLite copies the bytes.
    func bind(_ value: String, at index: Int32) throws(SQLiteError) {
        let code = value.bind(to: handle, at: index)
        guard code == SQLITE_OK else { throw error(code) }
    }

    func bind(_ value: Int, at index: Int32) throws(SQLiteError) {
        let code = sqlite3_bind_int64(handle, index, Int64(value))
        guard code == SQLITE_OK else { throw error(code) }
    }

    func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
        let code = sqlite3_bind_int64(handle, index, value)
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// Runs a statement that returns no rows to its end, then makes it ready for its next use
    /// (its bindings are replaced by the next binds).
    func runToEnd() throws(SQLiteError) {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Advances to the next row: `true` when a row is available, `false` when done.
    func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw error(code)
        }
    }

    /// Makes the statement ready for its next use and drops its bindings.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Makes a statement without parameters ready for its next use.
    func resetKeepingBindings() {
        sqlite3_reset(handle)
    }

    // MARK: - Reading the current row

    func int(_ column: Int32) -> Int {
        Int(sqlite3_column_int64(handle, column))
    }

    func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    /// The column as UTF-8 text; `""` for NULL.
    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The column as UTF-8 text; nil for NULL.
    func optionalText(_ column: Int32) -> String? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : text(column)
    }

    // MARK: - Errors

    private func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))))
    }
}
