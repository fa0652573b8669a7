// MARK: - Catalog files: import and export

extension ShopService {
    /// The `source` the stock ledger records for the levels `shop-rpc import` changes.
    public static let importSource = "shop-rpc import"

    /// Imports a catalog file's rows, all or nothing (protocol.md, section 9): see
    /// `ShopStore.importCatalog`. The summary's warnings are `source`'s (its header's), then the
    /// rows'; `options.strict` makes them errors. Each level it changes appends a ledger row (reason `import`,
    /// source `ledgerSource`, `actor`). The caller reports the errors `source` collected when the
    /// outcome is not committed (and it was no dry run). `interruption` stops and rolls back an
    /// import that has not committed yet (`.interrupted`).
    ///
    /// ```swift
    /// var source = MyReader(path)
    /// let outcome = try service.importCatalog(from: &source, options: CatalogImportOptions(replace: true)) { _ in }
    /// if source.hasErrors { printErrors(source) } else { print(outcome.summary.json) }
    /// ```
    /// - Throws: `ShopError` when the store fails (`.storeBusy` when another writer holds it too
    ///   long) or the import was interrupted (`.interrupted`, nothing written); row errors are
    ///   never thrown, they go to `source`.
    ///
    /// The file is read on a thread of its own, a few batches ahead of the store
    /// (`CatalogRowPrefetcher`), so reading and writing use two cores.
    public func importCatalog<Source: CatalogRowSource>(
        from source: inout Source, options: CatalogImportOptions, ledgerSource: String = ShopService.importSource, actor: String? = nil,
        interruption: (any ShopInterruption)? = nil, progress: (CatalogImportProgress) -> Void = { _ in }
    ) throws(ShopError) -> CatalogImportOutcome {
        let stockChanges = StockChangeCause.operation(.import, source: ledgerSource, actor: actor, at: OrderStamp.timestamp(now()))
        do {
            var outcome = try CatalogRowPrefetcher.run(&source) { prefetched in
                try store.importCatalog(from: &prefetched, options: options, stockChanges: stockChanges, interruption: interruption, progress: progress)
            }
            outcome.summary.warnings = source.warnings + outcome.summary.warnings
            return outcome
        } catch let error as ShopError {
            throw error
        } catch {
            throw ShopError.storage("reading the file failed: \(error)")
        }
    }

    /// Calls `body` with each variant of each product not archived (active or a draft), its
    /// product's status and its stock, in catalog order, from one consistent snapshot, in
    /// constant memory (`shop-rpc export products` and `export stock`).
    /// - Throws: `ShopError` when the store fails; whatever `body` throws, which stops the export.
    public func exportProducts(_ body: (Product, ProductStatus, Int) throws -> Void) throws {
        try store.exportProducts(body)
    }

    /// Calls `body` with each order placed at or after `since` (all when nil), oldest first, from
    /// one consistent snapshot, in constant memory (`shop-rpc export orders`).
    /// - Throws: as `exportProducts`.
    public func exportOrders(since: OrderTime?, _ body: (Order) throws -> Void) throws {
        try store.exportOrders(since: since?.stamp) { try body($0.presented()) }
    }

    /// Calls `body` with each stock ledger row made at or after `since` (all when nil), in ledger
    /// order, from one consistent snapshot, in constant memory (`shop-rpc export ledger`).
    /// - Throws: as `exportProducts`.
    public func exportStockLedger(since: OrderTime?, _ body: (StockMovement) throws -> Void) throws {
        try store.exportStockLedger(since: since?.stamp, body)
    }
}
