/// A failed libpq call: the server's SQLSTATE (empty when the failure is on the client side, e.g.
/// a lost connection) and libpq's message. Immutable; `Sendable`.
struct PostgreSQLError: Error, Sendable, CustomStringConvertible {
    /// Five-character SQLSTATE, e.g. `40001`; `""` when libpq reported no server error.
    let sqlState: String
    let message: String
    /// The server's DETAIL field (`""` when none); the order function puts an out-of-stock
    /// line's numbers here (`PostgreSQLOrderFunction`).
    var detail: String = ""

    /// `serialization_failure` or `deadlock_detected`: the transaction may simply be run again.
    var isRetryableConflict: Bool { sqlState == "40001" || sqlState == "40P01" }

    /// `unique_violation`: another transaction committed the same key first.
    var isUniqueViolation: Bool { sqlState == "23505" }

    /// `query_canceled`: `PQcancel` or `statement_timeout` stopped the statement.
    var isCancel: Bool { sqlState == "57014" }

    /// `lock_not_available`: a lock was held by another transaction past `lock_timeout`.
    var isLockTimeout: Bool { sqlState == "55P03" }

    var description: String {
        sqlState.isEmpty ? message : "\(message) (SQLSTATE \(sqlState))"
    }
}

// MARK: - Mapping to ShopError

extension ShopError {
    /// `error` as the service reports it from a PostgreSQL store: a `ShopError` as is, a cancel
    /// caused by `interruption` as `.interrupted`, a lock held past `lock_timeout` as
    /// `.storeBusy`, every other failure as `.storage`.
    init(postgresError error: any Error, interruption: (any ShopInterruption)?) {
        switch error {
        case let shopError as ShopError: self = shopError
        case let error as PostgreSQLError where error.isCancel && interruption?.isInterrupted == true: self = .interrupted
        case let error as PostgreSQLError where error.isLockTimeout:
            self = .storeBusy(detail: "another transaction held a lock this write needs for \(PostgreSQLConnection.lockTimeoutMilliseconds) ms: \(error.description)")
        case let error as PostgreSQLError: self = .storage(error.description)
        default: self = ShopError(storeError: error)
        }
    }
}
