/// One statement with `$1…$n` parameters, as `PostgreSQLConnection` sends several in one round
/// trip (`inOneRoundTrip`, `beginWithFirstStatement`). Each is prepared once per connection,
/// unless `prepared` is false: then it is planned for its own parameters every time (a search,
/// whose best plan depends on how common its words are). Immutable.
struct PostgreSQLCall {
    let sql: String
    let arguments: [any PostgreSQLValue]
    var prepared = true
}
