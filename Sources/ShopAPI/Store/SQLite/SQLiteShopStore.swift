import CSQLite
import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc  // usleep
#endif

/// `ShopStore` on SQLite: a pool of read connections plus one grouping writer.
///
/// - A database file: one writer connection (WAL, `synchronous=FULL`) used only on the writer's
///   queue, and up to `readerCount` `query_only` reader connections opened on demand. WAL lets
///   reads run while a group commits. Other processes may open the same file: `BEGIN IMMEDIATE`
///   plus a conditional stock update keep them from overselling.
/// - `":memory:"`: one connection, shared through a pool of one by reads and the writer, so every
///   call sees the same private database; reads wait while a write group runs.
///
/// Thread-safe. Reads run on the caller's thread; writes as described on `SQLiteGroupWriter`.
final class SQLiteShopStore: ShopStore {
    /// Read connections per database file.
    static let readerCount = 4

    private let readers: SQLiteConnectionPool
    private let writer: SQLiteGroupWriter
    let searchMode: SQLiteSearchMode

    private init(readers: SQLiteConnectionPool, writerConnection: SQLiteConnectionPool, searchMode: SQLiteSearchMode) {
        self.readers = readers
        self.searchMode = searchMode
        self.writer = SQLiteGroupWriter(connections: writerConnection) { connection in
            SQLiteShopTransaction(connection: connection, searchMode: searchMode, interruption: nil)
        }
    }

    // MARK: - Opening

    /// Opens the database at `path` (`":memory:"` for a private in-memory one), creating parent
    /// directories (0700) and the file (0600, `SQLiteStoreFiles`) and migrating as needed; a new
    /// database starts as `creation` says. `readOnly` opens an existing file with every
    /// connection read-only (`Role.readOnly`), creating, migrating and writing nothing, and fails
    /// when there is no store at `path` (an in-memory store is made as usual: it writes no file).
    /// `allowFullTextSearch: false` forces the search without an index (for tests of the fallback).
    static func open(
        path: String, creation: StoreCreation = .demoCatalog, readOnly: Bool = false, allowFullTextSearch: Bool = true
    ) throws(ShopError) -> SQLiteShopStore {
        if readOnly, path != ":memory:" {
            return try openReadOnly(path: path, allowFullTextSearch: allowFullTextSearch)
        }
        do {
            if path == ":memory:" {
                let connection = try SQLiteConnection.open(path: path, as: .inMemory)
                let searchMode = try SQLiteSchema.migrate(connection, creation: creation, allowFullTextSearch: allowFullTextSearch)
                let shared = SQLiteConnectionPool(capacity: 1, connections: [connection]) {
                    preconditionFailure("the in-memory pool never opens a second connection")
                }
                return SQLiteShopStore(readers: shared, writerConnection: shared, searchMode: searchMode)
            }
            _ = try SQLiteStoreFiles.createParentDirectories(of: path)
            try SQLiteStoreFiles.createPrivateDatabaseFile(path)
            let (writerConnection, searchMode) = try openWriterAndMigrate(path: path, creation: creation, allowFullTextSearch: allowFullTextSearch)
            let readers = SQLiteConnectionPool(capacity: readerCount) {
                try SQLiteConnection.open(path: path, as: .reader)
            }
            return SQLiteShopStore(
                readers: readers,
                writerConnection: SQLiteConnectionPool(capacity: 1, connections: [writerConnection]) {
                    preconditionFailure("the writer pool never opens a second connection")
                },
                searchMode: searchMode
            )
        } catch {
            throw ShopError(storeError: error)
        }
    }

    /// The store at `path` with every connection `Role.readOnly`: the writer's too, so a write
    /// that reached it would fail (the server serves no write method then).
    private static func openReadOnly(path: String, allowFullTextSearch: Bool) throws(ShopError) -> SQLiteShopStore {
        guard SQLiteStoreFiles.exists(path) else {
            throw ShopError.storage("there is no store there, and a read-only opening never creates one")
        }
        do {
            let first = try SQLiteConnection.open(path: path, as: .readOnly)
            let searchMode = try SQLiteSchema.checkReadOnly(first, allowFullTextSearch: allowFullTextSearch)
            let readers = SQLiteConnectionPool(capacity: readerCount, connections: [first]) {
                try SQLiteConnection.open(path: path, as: .readOnly)
            }
            let writer = SQLiteConnectionPool(capacity: 1) { try SQLiteConnection.open(path: path, as: .readOnly) }
            return SQLiteShopStore(readers: readers, writerConnection: writer, searchMode: searchMode)
        } catch {
            throw ShopError(storeError: error)
        }
    }

    /// Opens the file's writer connection and migrates it, starting again while SQLite answers
    /// `SQLITE_BUSY` (for at most the busy timeout, pausing 5 ms, then twice as long each time up to
    /// 100 ms). Several processes opening one new file at once can get `SQLITE_BUSY` without the busy
    /// timeout applying: switching the file to WAL needs an exclusive lock that SQLite does not wait
    /// for (4 processes started together on a new file: 3 of 400 failed to start before this).
    private static func openWriterAndMigrate(
        path: String, creation: StoreCreation, allowFullTextSearch: Bool
    ) throws -> (SQLiteConnection, SQLiteSearchMode) {
        let giveUp = DispatchTime.now() + .milliseconds(SQLiteConnection.busyTimeoutMilliseconds)
        var pauseMicroseconds: UInt32 = 5_000
        while true {
            do {
                let connection = try SQLiteConnection.open(path: path, as: .writer)
                return (connection, try SQLiteSchema.migrate(connection, creation: creation, allowFullTextSearch: allowFullTextSearch))
            } catch let error as SQLiteError where error.primaryCode == SQLITE_BUSY && DispatchTime.now() < giveUp {
                usleep(pauseMicroseconds)
                pauseMicroseconds = min(pauseMicroseconds * 2, 100_000)
            }
        }
    }

    // MARK: - ShopStore

    func read<T>(interruption: (any ShopInterruption)?, _ body: (any ShopReadTransaction) throws -> T) throws(ShopError) -> T {
        try onReadConnection(interruption: interruption) { transaction in
            try transaction.connection.inReadTransaction { try body(transaction) }
        }
    }

    /// Without `BEGIN`/`COMMIT`: the one statement runs in autocommit mode, where SQLite gives it
    /// a read transaction of its own (in WAL mode one snapshot, never waiting for the writer).
    func readOneStatement<T>(interruption: (any ShopInterruption)?, _ body: (any ShopReadTransaction) throws -> T) throws(ShopError) -> T {
        try onReadConnection(interruption: interruption) { transaction in try body(transaction) }
    }

    /// Runs `body` with the shop's primitives on a read connection (interrupts wired to
    /// `interruption`); every error as a `ShopError`.
    private func onReadConnection<T>(
        interruption: (any ShopInterruption)?, _ body: (SQLiteShopTransaction) throws -> T
    ) throws(ShopError) -> T {
        do {
            if interruption?.isInterrupted == true { throw ShopError.interrupted }
            let searchMode = self.searchMode
            return try readers.withConnection(interruption: interruption) { connection in
                try connection.withInterrupts(from: interruption) {
                    try body(SQLiteShopTransaction(connection: connection, searchMode: searchMode, interruption: interruption))
                }
            }
        } catch {
            throw ShopError(storeError: error)
        }
    }

    func write<T: Sendable>(
        interruption: (any ShopInterruption)?,
        callbackQueue: DispatchQueue,
        _ body: @escaping @Sendable (any ShopWriteTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, ShopError>) -> Void
    ) {
        submit(interruption: interruption, callbackQueue: callbackQueue, { try body($0) }, completion: completion)
    }

    /// `OrderPlacement`'s rules statement by statement, as one write of the group writer.
    func placeOrder(
        _ placement: OrderPlacement,
        interruption: (any ShopInterruption)?,
        callbackQueue: DispatchQueue,
        completion: @escaping @Sendable (Result<Order, ShopError>) -> Void
    ) {
        submit(interruption: interruption, callbackQueue: callbackQueue, { try placement.run(in: $0) }, completion: completion)
    }

    /// `body` as one write of the group writer, its outcome delivered on `callbackQueue`.
    private func submit<T: Sendable>(
        interruption: (any ShopInterruption)?,
        callbackQueue: DispatchQueue,
        _ body: @escaping @Sendable (any ShopOrderTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, ShopError>) -> Void
    ) {
        writer.submit(PendingWrite(
            interruption: interruption,
            perform: { transaction in
                let value = try body(transaction)
                return { callbackQueue.async { completion(.success(value)) } }
            },
            fail: { error in callbackQueue.async { completion(.failure(error)) } }
        ))
    }

    // MARK: - Catalog files

    /// On the writer connection, the writer queue waiting (`SQLiteCatalogImport`); a dry run on a
    /// read connection. `interruption` interrupts its statements (`sqlite3_interrupt`).
    func importCatalog<Source: CatalogRowSource>(
        from source: inout Source, options: CatalogImportOptions, stockChanges: StockChangeCause,
        interruption: (any ShopInterruption)?, progress: (CatalogImportProgress) -> Void
    ) throws(ShopError) -> CatalogImportOutcome {
        let searchMode = self.searchMode
        do {
            let run = { (connection: SQLiteConnection) in
                if interruption?.isInterrupted == true { throw ShopError.interrupted }
                return try connection.withInterrupts(from: interruption) {
                    try SQLiteCatalogImport(connection: connection, searchMode: searchMode, options: options, stockChanges: stockChanges,
                                            interruption: interruption)
                        .run(&source, progress: progress)
                }
            }
            if options.dryRun {
                return try readers.withConnection(interruption: nil, run)
            }
            return try writer.withConnectionExclusively(run)
        } catch {
            throw ShopError(storeError: error)
        }
    }

    /// The products in catalog order along `seq`'s index, each one's variants (its first, then
    /// the others `products_by_handle` holds, `SQLiteProductHandle`) sorted per product, a few
    /// rows at a time, so it streams.
    func exportProducts(_ body: (Product, ProductStatus, Int) throws -> Void) throws {
        try onExportSnapshot { connection in
            try connection.forEachRow(
                """
                SELECT \(ShopRows.storedProductColumns) FROM products l INDEXED BY products_by_seq
                JOIN products p ON p.sku IN (
                    SELECT l.sku UNION ALL SELECT o.sku FROM products o INDEXED BY products_by_handle
                    WHERE o.handle = l.handle AND \(SQLiteProductHandle.indexedRows("o.")) AND o.seq <> l.seq
                ) LEFT JOIN stock s ON s.sku = p.sku
                WHERE l.seq = l.product_seq AND l.status <> 'archived' ORDER BY l.seq, p.seq
                """, []
            ) { row in
                let stored = ShopRows.storedProduct(row)
                try body(stored.product, stored.status, stored.stock)
            }
        }
    }

    func exportOrders(since: String?, _ body: (Order) throws -> Void) throws {
        try onExportSnapshot { connection in
            var assembler = ShopRows.OrderAssembler()
            try connection.forEachRow(
                """
                SELECT o.seq, o.order_id, o.cart_id, o.total_cents, o.currency, o.status, o.created_at, o.cancelled_at, o.cancel_reason,
                   l.sku, l.quantity, l.unit_price_cents
                FROM orders o JOIN order_lines l ON l.order_seq = o.seq WHERE o.created_at >= ?1 ORDER BY o.seq, l.line_no
                """, [since ?? ""]
            ) { row in
                if let order = assembler.add(header: ShopRows.orderHeader(row), line: ShopRows.line(ShopRows.Offset(row, by: 9))) {
                    try body(order)
                }
            }
            if let order = assembler.finish() { try body(order) }
        }
    }

    func exportStockLedger(since: String?, _ body: (StockMovement) throws -> Void) throws {
        try onExportSnapshot { connection in
            try connection.forEachRow(
                "SELECT \(ShopRows.movementColumns) FROM stock_ledger WHERE at >= ?1 ORDER BY seq", [since ?? ""]
            ) { row in try body(ShopRows.movement(row)) }
        }
    }

    /// Runs `body` on a read connection in one read transaction (one snapshot); store errors as
    /// `ShopError`, `body`'s own as they are.
    private func onExportSnapshot(_ body: (SQLiteConnection) throws -> Void) throws {
        try readers.withConnection(interruption: nil) { connection in
            do {
                try connection.beginDeferred()
            } catch {
                throw ShopError(storeError: error)
            }
            defer { connection.rollbackIfInTransaction() }
            do {
                try body(connection)
            } catch let error as SQLiteError {
                throw ShopError(storeError: error)
            }
        }
    }

    var stats: (transactions: Int, operations: Int) {
        writer.stats
    }

    var readConcurrency: Int { readers.capacity }

    /// Reads are function calls into SQLite on this machine, and WAL readers never wait for a writer.
    var readsAreLocal: Bool { true }
}
