import Dispatch
import SharedSupport

/// Runs every write of one store on one connection, on one serial queue, grouping writes
/// submitted close together into one transaction.
///
/// A drain on `writerQueue` takes everything queued, runs it in one `BEGIN IMMEDIATE`
/// transaction with a `SAVEPOINT` per operation (a failing operation rolls back to its own
/// savepoint only), commits once (one fsync for the group), and only then delivers each result.
/// While a group commits, new writes queue up and form the next group, so under load an fsync
/// serves many operations.
///
/// A write whose call is interrupted while it waits for its group fails at once with
/// `.interrupted` (so its deadline reply does not wait for the groups, or the import, before it);
/// once the writer has claimed it, it runs unless already interrupted, and its outcome is what
/// the group's commit makes of it.
///
/// Thread-safe: `submit` may be called from any thread; the queue state is `shared`, under its lock.
/// Each submitted write's `perform`/`fail` outcome is delivered exactly once (`PendingWrite.claim`).
final class SQLiteGroupWriter: Sendable {
    private let writerQueue = DispatchQueue(label: "shop-rpc.store.writer")
    private let connections: SQLiteConnectionPool
    private let makeTransaction: @Sendable (SQLiteConnection) -> any ShopOrderTransaction

    /// What `submit` and the writer queue share.
    private struct Shared {
        /// Writes waiting for the next group, each with what unregisters its interrupt handler.
        var pending: [(write: PendingWrite, unregister: @Sendable () -> Void)] = []
        /// Whether a drain is already queued on `writerQueue`.
        var drainScheduled = false
        /// Committed groups and the operations they ran.
        var counts = (transactions: 0, operations: 0)
    }
    private let shared = Locked(Shared())

    /// A writer that borrows its connection from `connections` for each group (a pool of one:
    /// the file's writer connection, or the in-memory database's only connection).
    init(connections: SQLiteConnectionPool, makeTransaction: @escaping @Sendable (SQLiteConnection) -> any ShopOrderTransaction) {
        self.connections = connections
        self.makeTransaction = makeTransaction
    }

    // MARK: - Submitting

    /// Queues `write` for the next group. Never blocks on the database.
    func submit(_ write: PendingWrite) {
        // Registered before queueing: an interruption that already fired fails the write here,
        // and the drain skips it.
        var unregister: @Sendable () -> Void = {}
        if let interruption = write.interruption {
            unregister = interruption.addInterruptHandler {
                if write.claim() { write.fail(.interrupted) }
            }
        }
        let mustSchedule = shared.withLock { shared in
            shared.pending.append((write, unregister))
            defer { shared.drainScheduled = true }
            return !shared.drainScheduled
        }
        if mustSchedule {
            writerQueue.async { self.drainAssumingOnWriterQueue() }
        }
    }

    /// Runs `body` with the writer's connection on the writer queue, the caller waiting: no group
    /// runs meanwhile (an import's one long transaction). `body` leaves no transaction open.
    /// - Important: never call on `writerQueue`.
    func withConnectionExclusively<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        dispatchPrecondition(condition: .notOnQueue(writerQueue))
        return try writerQueue.sync {
            try connections.withConnection(interruption: nil, body)
        }
    }

    /// Committed groups and the operations they ran since the store opened.
    var stats: (transactions: Int, operations: Int) {
        shared.withLock { $0.counts }
    }

    // MARK: - Draining

    /// - Important: call on `writerQueue`.
    private func drainAssumingOnWriterQueue() {
        dispatchPrecondition(condition: .onQueue(writerQueue))
        let queued = shared.withLock { shared in
            defer {
                shared.pending = []
                shared.drainScheduled = false
            }
            return shared.pending
        }
        // The writes not failed by their interruption meanwhile are this group's.
        let group = queued.compactMap { write, unregister -> PendingWrite? in
            guard write.claim() else { return nil }
            unregister()
            return write
        }
        guard !group.isEmpty else { return }

        let outcomes: [Outcome]
        do {
            outcomes = try connections.withConnection(interruption: nil) { connection in
                try runGroup(group, on: connection)
            }
        } catch {
            let failure = ShopError(storeError: error)
            outcomes = group.map { _ in .failed(failure) }
        }
        for (write, outcome) in zip(group, outcomes) {
            switch outcome {
            case let .succeeded(deliver): deliver()
            case let .failed(error): write.fail(error)
            }
        }
    }

    /// Runs `group` in one transaction; returns one outcome per write, in order. Throws (and
    /// commits nothing) if the transaction as a whole fails.
    private func runGroup(_ group: [PendingWrite], on connection: SQLiteConnection) throws -> [Outcome] {
        try connection.run("BEGIN IMMEDIATE")
        do {
            let transaction = makeTransaction(connection)
            var outcomes: [Outcome] = []
            outcomes.reserveCapacity(group.count)
            for write in group {
                outcomes.append(try runOperation(write, in: transaction, on: connection))
            }
            try connection.run("COMMIT")
            shared.withLock {
                $0.counts.transactions += 1
                $0.counts.operations += group.count
            }
            return outcomes
        } catch {
            connection.rollbackIfInTransaction()
            throw error
        }
    }

    /// Runs one write in its own savepoint. A failure of the write becomes its `.failed` outcome;
    /// only a failure of the enclosing transaction is thrown.
    private func runOperation(_ write: PendingWrite, in transaction: any ShopOrderTransaction, on connection: SQLiteConnection) throws -> Outcome {
        if write.interruption?.isInterrupted == true {
            return .failed(.interrupted)
        }
        do {
            return .succeeded(try connection.inSavepoint("operation") { try write.perform(transaction) })
        } catch let broken as SQLiteConnection.TransactionBroken {
            throw broken.cause
        } catch {
            return .failed(ShopError(storeError: error))
        }
    }

    /// How one write ended inside a group.
    private enum Outcome {
        case succeeded(@Sendable () -> Void)
        case failed(ShopError)
    }
}
