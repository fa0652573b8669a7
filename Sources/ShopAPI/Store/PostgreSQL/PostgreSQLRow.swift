import CPostgreSQL

/// One row of a query result, read in text format. Valid only inside the row-mapping closure
/// that received it (the result is cleared afterwards). Not thread-safe.
struct PostgreSQLRow {
    let result: OpaquePointer
    let index: Int32

    /// The column as a string, as stored by `PostgreSQLValue` (unescaped, see `PostgreSQLText`).
    func text(_ column: Int32) -> String {
        PostgreSQLText.unescaped(raw(column))
    }

    /// As `text`; nil for NULL.
    func optionalText(_ column: Int32) -> String? {
        PQgetisnull(result, index, column) == 0 ? text(column) : nil
    }

    /// The column exactly as the server sent it.
    func raw(_ column: Int32) -> String {
        guard PQgetisnull(result, index, column) == 0, let value = PQgetvalue(result, index, column) else { return "" }
        return String(cString: value)
    }

    /// The column as an integer; 0 for NULL or a non-integer (the schema makes these columns
    /// `NOT NULL` integers, so that never happens with our own queries).
    func int(_ column: Int32) -> Int {
        Int(raw(column)) ?? 0
    }

    func int64(_ column: Int32) -> Int64 {
        Int64(raw(column)) ?? 0
    }
}
