// MARK: - Catalog files: import and export

extension ShopService {
    /// Imports a catalog file's rows, all or nothing (protocol.md, section 9): see
    /// `ShopStore.importCatalog`. The caller reports the errors `source` collected when the
    /// outcome is not committed (and it was no dry run).
    ///
    /// ```swift
    /// var source = MyReader(path)
    /// let outcome = try service.importCatalog(from: &source, options: CatalogImportOptions(replace: true)) { _ in }
    /// if source.hasErrors { printErrors(source) } else { print(outcome.summary.json) }
    /// ```
    /// - Throws: `ShopError` when the store fails (`.storeBusy` when another writer holds it too
    ///   long); row errors are never thrown, they go to `source`.
    ///
    /// The file is read on a thread of its own, a few batches ahead of the store
    /// (`CatalogRowPrefetcher`), so reading and writing use two cores.
    public func importCatalog<Source: CatalogRowSource>(
        from source: inout Source, options: CatalogImportOptions, progress: (CatalogImportProgress) -> Void = { _ in }
    ) throws(ShopError) -> CatalogImportOutcome {
        do {
            return try CatalogRowPrefetcher.run(&source) { prefetched in
                try store.importCatalog(from: &prefetched, options: options, progress: progress)
            }
        } catch let error as ShopError {
            throw error
        } catch {
            throw ShopError.storage("reading the file failed: \(error)")
        }
    }

    /// Calls `body` with each product in the catalog and its stock, in SKU order, from one
    /// consistent snapshot, in constant memory (`shop-rpc export products` and `export stock`).
    /// - Throws: `ShopError` when the store fails; whatever `body` throws, which stops the export.
    public func exportProducts(_ body: (Product, Int) throws -> Void) throws {
        try store.exportProducts(body)
    }

    /// Calls `body` with each order placed at or after `since` (all when nil), oldest first, from
    /// one consistent snapshot, in constant memory (`shop-rpc export orders`).
    /// - Throws: as `exportProducts`.
    public func exportOrders(since: OrderTime?, _ body: (Order) throws -> Void) throws {
        try store.exportOrders(since: since?.stamp, body)
    }
}
