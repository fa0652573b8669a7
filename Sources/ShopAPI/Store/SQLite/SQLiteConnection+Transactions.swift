// MARK: - Transactions

extension SQLiteConnection {
    /// Runs `body` inside a deferred (read) transaction, so all its statements see one snapshot.
    /// Commits on success; rolls back and rethrows on failure.
    func inReadTransaction<T>(_ body: () throws -> T) throws -> T {
        try beginDeferred()
        do {
            let value = try body()
            try commit()
            return value
        } catch {
            rollbackIfInTransaction()
            throw error
        }
    }

    /// Runs `body` inside `SAVEPOINT name`: released on success; on failure rolled back to (so
    /// only `body`'s changes are undone) and released, then `body`'s error is rethrown.
    ///
    /// If the savepoint machinery itself fails, or SQLite abandoned the enclosing transaction
    /// (some I/O errors and a full disk do), throws `TransactionBroken`: the enclosing
    /// transaction can no longer be trusted and must be rolled back as a whole.
    func inSavepoint<T>(_ name: String, _ body: () throws -> T) throws -> T {
        do {
            try run("SAVEPOINT \(name)")
        } catch {
            throw TransactionBroken(cause: error)
        }
        let value: T
        do {
            value = try body()
        } catch {
            guard !isAutocommit else { throw TransactionBroken(cause: error) }
            do {
                try run("ROLLBACK TO \(name)")
                try run("RELEASE \(name)")
            } catch let cleanupError {
                throw TransactionBroken(cause: cleanupError)
            }
            throw error
        }
        do {
            try run("RELEASE \(name)")
        } catch {
            throw TransactionBroken(cause: error)
        }
        return value
    }

    /// The enclosing transaction is no longer usable; `cause` says why.
    struct TransactionBroken: Error {
        let cause: any Error
    }
}
