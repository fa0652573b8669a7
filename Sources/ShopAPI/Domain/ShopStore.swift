import Dispatch

/// The persistence seam under `ShopService`: transactions and primitive reads and writes, no
/// business rules (those live in the service, so they can be tested against a fake store).
///
/// Conformers are thread-safe.
protocol ShopStore: Sendable {
    /// Runs `body` on the caller's thread against one consistent snapshot and returns its result.
    ///
    /// Throws `.interrupted` without starting when `interruption` already fired, and stops the
    /// read (also with `.interrupted`) when it fires meanwhile. Throws only `ShopError`.
    func read<T>(interruption: (any ShopInterruption)?, _ body: (any ShopReadTransaction) throws -> T) throws(ShopError) -> T

    /// `read` for a `body` that runs exactly one statement (one primitive read that is a single
    /// query: a product by sku, a page of products). One statement always reads one snapshot, so a
    /// store may run it without opening a transaction around it (SQLite: in autocommit mode, which
    /// saves running `BEGIN` and `COMMIT`). The promise is the caller's: a body that runs two
    /// statements here could see two snapshots. Same errors and interruption as `read`, which is
    /// what a store that does not say otherwise runs.
    func readOneStatement<T>(interruption: (any ShopInterruption)?, _ body: (any ShopReadTransaction) throws -> T) throws(ShopError) -> T

    /// Runs `body` atomically: all its changes are kept, or none if it throws. `completion` is
    /// called exactly once, on `callbackQueue`, after the changes are durable.
    ///
    /// If `interruption` has fired by the time `body` would start, `body` is skipped and the
    /// result is `.interrupted`; once started, a write runs to completion.
    func write<T: Sendable>(
        interruption: (any ShopInterruption)?,
        callbackQueue: DispatchQueue,
        _ body: @escaping @Sendable (any ShopWriteTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, ShopError>) -> Void
    )

    /// Runs `placement`'s rules as one write, with the same promises as `write`: in a
    /// `ShopOrderTransaction` with `OrderPlacement.run(in:)`, or the same rules its own way (fewer
    /// round trips to a database server), keeping every rule and error.
    func placeOrder(
        _ placement: OrderPlacement,
        interruption: (any ShopInterruption)?,
        callbackQueue: DispatchQueue,
        completion: @escaping @Sendable (Result<Order, ShopError>) -> Void
    )
    // MARK: - Catalog files

    /// Imports `source`'s rows (`shop-rpc import`, protocol.md section 9) with
    /// `CatalogRowMerge`'s rules, in one transaction: the store holds afterwards either the whole
    /// file or, if any row had an error (the file's own, reported by the source, or the rules',
    /// reported to it), exactly what it held before. Servers on the same store keep serving
    /// meanwhile and see the new catalog all at once when it commits. With `options.dryRun`
    /// nothing is written. Calls `progress` every `CatalogImportProgress.rowInterval` rows, and
    /// once with `finishing` before committing; on the caller's thread.
    ///
    /// Every level the import changes (a new product's stock when not 0, a row's `stock` that
    /// differs) appends its ledger row with `stockChanges` (reason `import`), in the same
    /// transaction; the delta is taken from the level the row replaces at that moment.
    ///
    /// `interruption` (an `admin.products.upsert` call's deadline or cancel) stops the import and
    /// rolls it back (`.interrupted`) as long as it has not committed: its statements are
    /// interrupted and it is checked between rows and right before COMMIT. Once COMMIT has
    /// succeeded the import returns its outcome whatever fires after.
    func importCatalog<Source: CatalogRowSource>(
        from source: inout Source, options: CatalogImportOptions, stockChanges: StockChangeCause,
        interruption: (any ShopInterruption)?, progress: (CatalogImportProgress) -> Void
    ) throws(ShopError) -> CatalogImportOutcome

    /// Calls `body` with every variant of every product not archived (active or a draft), its
    /// product's status and its stock: the products in catalog order, each one's variants
    /// together in the order they were added (so a catalog file of them gives each product's
    /// rows one after the other), from one snapshot, streaming (constant memory). An error `body` throws stops the export and
    /// is rethrown.
    func exportProducts(_ body: (Product, ProductStatus, Int) throws -> Void) throws
    /// Calls `body` with every order placed at or after `since` (an order timestamp, see
    /// `OrderStamp`; all when nil), oldest first, from one snapshot, streaming.
    func exportOrders(since: String?, _ body: (Order) throws -> Void) throws
    /// Calls `body` with every stock ledger row made at or after `since` (a timestamp as the rows
    /// hold it; all when nil), in ledger order, from one snapshot, streaming.
    func exportStockLedger(since: String?, _ body: (StockMovement) throws -> Void) throws

    /// Write transactions committed and write operations run in them, since the store opened.
    var stats: (transactions: Int, operations: Int) { get }

    /// How many reads can run at once without one waiting for another (its read connections).
    var readConcurrency: Int { get }

    /// True when a read never waits on the network or on another process for long (an SQLite
    /// file), so an idle server may run it on its reader thread. False unless a store says so.
    var readsAreLocal: Bool { get }
}

extension ShopStore {
    var readsAreLocal: Bool { false }

    func readOneStatement<T>(interruption: (any ShopInterruption)?, _ body: (any ShopReadTransaction) throws -> T) throws(ShopError) -> T {
        try read(interruption: interruption, body)
    }
}
