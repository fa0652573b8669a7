import CSQLite

/// A failed SQLite call: its (extended) result code and SQLite's message. Immutable; `Sendable`.
struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// Extended result code, e.g. `SQLITE_BUSY_SNAPSHOT`.
    let code: Int32
    let message: String

    /// The primary result code, e.g. `SQLITE_BUSY`.
    var primaryCode: Int32 { code & 0xff }

    /// `true` when `sqlite3_interrupt` stopped the statement.
    var isInterrupt: Bool { primaryCode == SQLITE_INTERRUPT }

    var description: String { "\(message) (SQLite code \(code))" }
}

// MARK: - Mapping to ShopError

extension ShopError {
    /// `error` as the service reports it: a `ShopError` as is, SQLite's interrupt as
    /// `.interrupted`, a lock another connection held past the busy timeout as `.storeBusy`, every
    /// pool waiting to reconnect (`ReconnectPending`) as `.storeUnreachable`, every other failure
    /// as `.storage`.
    init(storeError error: any Error) {
        switch error {
        case let shopError as ShopError: self = shopError
        case let sqliteError as SQLiteError where sqliteError.isInterrupt: self = .interrupted
        case let sqliteError as SQLiteError where sqliteError.primaryCode == SQLITE_BUSY:
            self = .storeBusy(detail: "another connection held the database's lock for \(SQLiteConnection.busyTimeoutMilliseconds) ms: \(sqliteError.description)")
        case let sqliteError as SQLiteError: self = .storage(sqliteError.description)
        case let pending as ReconnectPending:
            self = .storeUnreachable(retryInMilliseconds: pending.retryInMilliseconds, lastFailure: pending.lastFailure)
        default: self = .storage(String(describing: error))
        }
    }
}
