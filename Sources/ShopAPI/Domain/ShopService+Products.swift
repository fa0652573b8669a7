import Dispatch

// MARK: - The operator's product methods

extension ShopService {
    /// The `source` the stock ledger records for the levels `admin.products.upsert` changes.
    static let upsertSource = "admin.products.upsert"

    /// `admin.products.upsert`: adds or changes products with the catalog import's rules, all or
    /// nothing, and answers the import's summary (its `archived` is 0: nothing is replaced).
    ///
    /// `ndjson` holds the products as a catalog file's NDJSON does, one object per line, the
    /// `line`-th line being the `line`-th product; the import's reader checks it (unknown members,
    /// ranges, a SKU given twice) and its rules apply each row (a new SKU needs a name, a category
    /// and a price; a member left out keeps the product's field; an archived product comes back).
    /// Every level it changes appends a ledger row (reason `import`, source
    /// `admin.products.upsert`, `actor`).
    ///
    /// `interruption` (the call's deadline or cancel) stops it: then nothing is written and it
    /// throws `.interrupted`, unless it had already committed, when it returns the summary.
    ///
    /// - Throws: `.invalidProducts` when any product breaks a rule (nothing written);
    ///   `.interrupted`; `.storage` and `.storeBusy` as the import does.
    public func upsertProducts(ndjson: [UInt8], actor: String?, interruption: (any ShopInterruption)?) throws(ShopError) -> CatalogImportSummary {
        var rows = ProductRows(reader: CatalogFileReader(format: .ndjson, source: MemorySource(ndjson)))
        let outcome = try importCatalog(from: &rows, options: CatalogImportOptions(), ledgerSource: Self.upsertSource, actor: actor,
                                        interruption: interruption)
        let errors = rows.reader.errors
        guard errors.isEmpty else {
            throw ShopError.invalidProducts(errors: errors.shown.sorted { $0.line < $1.line }, more: errors.notShownCount)
        }
        guard outcome.committed else { throw ShopError.storage("the products were not written") }
        return outcome.summary
    }

    /// `admin.products.archive`: takes the products `skus` are variants of out of the catalog as
    /// `import --replace` does (status archived, every variant: gone from `catalog.list` and
    /// `catalog.search`; `catalog.get`, `catalog.product`, `cart.add` and orders answer NotFound for them; their stock, carts and orders are kept; an upsert or
    /// import that lists one brings it back), all or nothing, and answers how many it archived
    /// (one archived already counts nowhere). An unknown SKU fails with
    /// `.notFound(entity: "product")`, archiving none. Calls `completion` exactly once, on
    /// `callbackQueue`, after the change is durable.
    public func archiveProducts(
        skus: [String],
        interruption: (any ShopInterruption)?,
        callbackQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<ProductsArchived, ShopError>) -> Void
    ) {
        store.write(interruption: interruption, callbackQueue: callbackQueue, { transaction in
            var archived = 0
            var seen = Set<String>()
            for sku in skus where seen.insert(sku).inserted {
                switch try transaction.archiveProduct(sku: sku) {
                case .archived: archived += 1
                case .alreadyArchived: break
                case .unknown: throw ShopError.notFound(entity: "product", id: sku)
                }
            }
            return ProductsArchived(archived: archived)
        }, completion: completion)
    }
}

/// The products of an upsert as an import's source: the NDJSON reader's rows, and the errors the
/// import finds with them reported to the reader, so both kinds are kept together.
private struct ProductRows: CatalogRowSource {
    var reader: CatalogFileReader<MemorySource>

    mutating func nextRow() throws -> CatalogRow? { try reader.next() }
    var hasErrors: Bool { !reader.errors.isEmpty }

    mutating func reportError(line: Int, field: String, message: String) {
        reader.report(CatalogFileError(line: line, field: field, message: message))
    }

    var bytesRead: Int { reader.bytesRead }
}
