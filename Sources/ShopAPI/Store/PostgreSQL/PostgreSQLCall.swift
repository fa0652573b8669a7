// MARK: - PostgreSQLCall

/// One statement with `$1…$n` parameters, as `PostgreSQLConnection` sends several in one round
/// trip (`inOneRoundTrip`, `beginWithFirstStatement`). Each is prepared once per connection.
/// Immutable.
struct PostgreSQLCall {
    let sql: String
    let arguments: [any PostgreSQLValue]
}
