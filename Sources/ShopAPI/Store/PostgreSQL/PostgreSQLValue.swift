// MARK: - PostgreSQLValue

/// A query parameter, sent in libpq's text format (`nil` is SQL NULL).
protocol PostgreSQLValue {
    var postgresText: String? { get }
}

extension String: PostgreSQLValue {
    var postgresText: String? { self }
}

extension Int: PostgreSQLValue {
    var postgresText: String? { String(self) }
}

extension Int64: PostgreSQLValue {
    var postgresText: String? { String(self) }
}

extension Optional: PostgreSQLValue where Wrapped: PostgreSQLValue {
    var postgresText: String? { self?.postgresText }
}
