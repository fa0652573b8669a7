/// `ShopStore.importCatalog` on SQLite: the file's rows applied with `CatalogRowMerge`'s rules,
/// row by row, in one `BEGIN IMMEDIATE` transaction on the store's writer connection (a dry run:
/// one read transaction, writing nothing).
///
/// Why servers on the same file keep serving: in WAL mode a reader never waits for the writer.
/// Their reads see the catalog as it was until the COMMIT, then all of the new one (products,
/// stock and the search index change in the same transaction); the pages the import writes before
/// it commits sit in the WAL as uncommitted frames that no reader looks at, so a `kill -9` at any
/// moment leaves the store as it was. Their writes (carts, orders) wait for the write lock at most
/// their busy timeout and then fail with `.storeBusy`.
///
/// Memory is bounded whatever the file: the reader's, one row, a bit per product for `--replace`
/// (`SeqBitSet`), pending vocabulary counts (`SQLiteSearchIndexWriter.maxPendingWords`) and the connection's page cache
/// (`importCacheKibibytes`). One thread: the caller's, holding the connection.
struct SQLiteCatalogImport {
    /// The page cache the import gives its connection (SQLite spills what does not fit into the WAL).
    static let importCacheKibibytes = 32 * 1024
    /// Products read per statement when `--replace` looks for those the file did not list.
    static let archiveBatch = 1000

    let connection: SQLiteConnection
    let searchMode: SQLiteSearchMode
    let options: CatalogImportOptions
    /// What the ledger rows of the levels this import changes record.
    let stockChanges: StockChangeCause
    /// Stops the import before it commits (checked between rows and before COMMIT; the store
    /// interrupts its statements).
    var interruption: (any ShopInterruption)?

    /// Runs the import; commits only if no row had an error and this is no dry run.
    func run<Source: CatalogRowSource>(_ source: inout Source, progress: (CatalogImportProgress) -> Void) throws -> CatalogImportOutcome {
        if !options.dryRun {
            try connection.execute("PRAGMA cache_size = -\(Self.importCacheKibibytes)")
        }
        try connection.execute(options.dryRun ? "BEGIN DEFERRED" : "BEGIN IMMEDIATE")
        do {
            var pass = try Pass(connection: connection, searchMode: searchMode, options: options, stockChanges: stockChanges)
            let summary = try pass.importRows(&source, interruption: interruption, progress: progress)
            let commit = !options.dryRun && !source.hasErrors
            if commit {
                // Past this check an interrupt can still stop COMMIT itself, which then fails and
                // rolls back; once COMMIT has returned, the import is done whatever fires.
                if interruption?.isInterrupted == true { throw ShopError.interrupted }
                try connection.execute("COMMIT")
                emptyTheWAL()
            } else {
                connection.rollbackIfInTransaction()
            }
            return CatalogImportOutcome(summary: summary, committed: commit)
        } catch {
            connection.rollbackIfInTransaction()
            throw error
        }
    }

    /// Copies the import's pages from the WAL into the database file and empties the WAL, waiting
    /// (at most the busy timeout) for servers' reads of older snapshots to end. Otherwise the WAL
    /// stays as big as the whole change: every read then looks its pages up in a large WAL index,
    /// and every process that opens the store alone first reads the whole WAL to rebuild that
    /// index (servers end without the checkpoint a last close would do). Best effort: if readers
    /// keep older snapshots longer, the next checkpoint finishes the work.
    private func emptyTheWAL() {
        try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// One import's state and statements, inside its transaction.
    private struct Pass {
        let connection: SQLiteConnection
        let searchMode: SQLiteSearchMode
        let options: CatalogImportOptions
        let stockChanges: StockChangeCause
        /// The store's currency; nil until the first row when the store has no products.
        var currency: String?
        /// Whether the store had products before: if not, no row needs looking up.
        let hadProducts: Bool
        /// The catalog position the next new product gets; those from here on are this import's.
        var nextSeq: Int64
        let firstNewSeq: Int64
        /// Existing products the file lists, by their first variant's seq (for `--replace`).
        var listed = SeqBitSet()
        var summary = CatalogImportSummary()
        let lookUp: SQLiteStatement
        let lookUpHandle: SQLiteStatement
        let lookUpValues: SQLiteStatement

        init(connection: SQLiteConnection, searchMode: SQLiteSearchMode, options: CatalogImportOptions, stockChanges: StockChangeCause) throws {
            self.connection = connection
            self.searchMode = searchMode
            self.options = options
            self.stockChanges = stockChanges
            currency = try connection.query("SELECT currency FROM products LIMIT 1", []) { $0.text(0) }.first
            hadProducts = currency != nil
            nextSeq = (try connection.query("SELECT coalesce(max(seq), 0) FROM products", []) { $0.int64(0) }.first ?? 0) + 1
            firstNewSeq = nextSeq
            lookUp = try connection.prepare(
                "SELECT \(ShopRows.storedProductColumns) FROM products p LEFT JOIN stock s ON s.sku = p.sku WHERE p.sku = ?1")
            let variants = SQLiteProductHandle.skus(ofHandlesIn: "(?1)")
            lookUpHandle = try connection.prepare("""
                SELECT \(ShopRows.storedProductColumns) FROM products p LEFT JOIN stock s ON s.sku = p.sku
                WHERE p.sku IN \(variants) ORDER BY p.seq LIMIT 1
                """)
            lookUpValues = try connection.prepare(
                "SELECT sku FROM products WHERE sku IN \(variants) AND option_values = ?2 AND sku <> ?3 LIMIT 1")
        }

        /// Reads every row, applying each while the file has no error; then, for `--replace`,
        /// archives (or counts) the products the file did not list.
        mutating func importRows<Source: CatalogRowSource>(
            _ source: inout Source, interruption: (any ShopInterruption)?, progress: (CatalogImportProgress) -> Void
        ) throws -> CatalogImportSummary {
            var writes = options.dryRun ? nil : try Writes(connection: connection, searchMode: searchMode, stockChanges: stockChanges)
            var seen = 0
            var rows = AnalyzedCatalogRows(analysing: writes != nil, entry: SQLiteSearchIndex.entry(of:))
            while let next = try rows.next(from: &source) {
                let row = next.row
                // SQLite's interrupt stops a running statement only; between statements, this does.
                if interruption?.isInterrupted == true { throw ShopError.interrupted }
                seen += 1
                if seen % CatalogImportProgress.rowInterval == 0 {
                    progress(CatalogImportProgress(rows: seen, bytesRead: source.bytesRead))
                }
                let currency = self.currency ?? CatalogRowMerge.storeCurrency(existing: nil, firstRow: row)
                self.currency = currency
                let existing = hadProducts ? try find(row.sku, with: lookUp) : nil
                // A new SKU with a handle may be a new variant of a product the store had, or of
                // one this import created.
                var sibling: StoredProduct?
                if existing == nil, let handle = row.handle, hadProducts || nextSeq > firstNewSeq {
                    sibling = try find(handle, with: lookUpHandle)
                }
                if let known = existing ?? sibling { listed.insert(known.productSeq) }
                let takenBy = try (existing ?? sibling).flatMap { base in
                    CatalogRowMerge.needsValuesCheck(row, existing: existing)
                        ? try variant(of: base.product.handle, withValues: row.optionValues ?? [], other: row.sku) : nil
                }
                let outcome = CatalogRowMerge.merge(row, into: existing, sibling: sibling, valuesTakenBy: takenBy, currency: currency)
                summary.count(row, outcome, currency: currency)
                if case let .rejected(errors) = outcome {
                    for error in errors { source.reportError(line: row.line, field: error.field, message: error.message) }
                }
                if source.hasErrors { writes = nil }
                if writes != nil { try apply(outcome, to: existing ?? sibling, analysis: next.analysis, with: &writes!) }
            }
            progress(CatalogImportProgress(rows: seen, bytesRead: source.bytesRead, finishing: true))
            summary.finishWarnings(strict: options.strict, reportingTo: &source)
            if source.hasErrors { return summary }
            if options.replace { try archiveUnlisted(with: &writes) }
            if writes != nil { try writes!.searchIndex.flush() }
            return summary
        }

        /// The variant `statement` finds for `key` (a SKU, or a handle's first variant), whatever its status.
        private func find(_ key: String, with statement: SQLiteStatement) throws -> StoredProduct? {
            try statement.bind(key, at: 1)
            defer { statement.reset() }
            guard try statement.step() else { return nil }
            return ShopRows.storedProduct(statement)
        }

        /// The SKU of a variant of `handle`, other than `other`, whose option values are `values`.
        private func variant(of handle: String, withValues values: [String], other: String) throws -> String? {
            try lookUpValues.bind(handle, at: 1)
            try lookUpValues.bind(ShopRows.optionText(values), at: 2)
            try lookUpValues.bind(other, at: 3)
            defer { lookUpValues.reset() }
            return try lookUpValues.step() ? lookUpValues.text(0) : nil
        }

        /// Writes `outcome`; `stored` is the row's variant, or for a new variant of a stored
        /// product, a variant of that product; `analysis`, the row's (`AnalyzedCatalogRows`).
        private mutating func apply(_ outcome: CatalogRowMerge.Outcome, to stored: StoredProduct?,
                                    analysis: AnalyzedCatalogRows<SQLiteSearchIndex.Entry>.Analysis?,
                                    with writes: inout Writes) throws {
            switch outcome {
            case .rejected:
                return
            case let .create(product, status, stock, joining, productChanged):
                let seq = nextSeq
                nextSeq += 1
                try writes.insert(product, status: status, seq: seq, productSeq: joining ?? seq, stock: stock)
                try writes.recordStockChange(sku: product.sku, from: 0, to: stock)
                if let joining {
                    if productChanged, let stored {
                        try writes.updateProduct(product, status: status, from: stored)
                    }
                    // The product has one more SKU to be found by (and maybe new text).
                    try writes.searchIndex.reindex(productSeq: joining)
                } else if status == .active {
                    try writes.searchIndex.index(productSeq: seq, document: Self.document(of: product), ahead: analysis)
                }
            case let .update(product, status, stock, productChanged):
                guard let existing = stored else { return }
                try writes.updateVariant(product, from: existing.product)
                if let stock {
                    try writes.setStock(sku: product.sku, stock)
                    try writes.recordStockChange(sku: product.sku, from: existing.stock, to: stock)
                }
                if productChanged { try changeProduct(to: product, status: status, from: existing, with: &writes) }
            case let .keep(stock):
                if let existing = stored, let stock {
                    try writes.setStock(sku: existing.product.sku, stock)
                    try writes.recordStockChange(sku: existing.product.sku, from: existing.stock, to: stock)
                }
            }
        }

        /// Sets the product fields and status of every variant of `stored`'s product to those of
        /// `product`, and the product in the search index to match.
        private mutating func changeProduct(to product: Product, status: ProductStatus, from stored: StoredProduct, with writes: inout Writes) throws {
            try writes.updateProduct(product, status: status, from: stored)
            try writes.searchIndex.reindex(productSeq: stored.productSeq)
        }

        /// The search document of a new product whose one variant is `product`.
        private static func document(of product: Product) -> SearchDocument {
            SearchDocument(name: product.name, brand: product.brand, category: product.category, description: product.description,
                           sku: product.sku, handle: product.handle)
        }

        /// `--replace`: archives (a dry run: counts) every product of the store before this import,
        /// not archived yet (active or a draft), none of whose variants the file lists, reading
        /// their first variants a batch at a time in catalog order.
        private mutating func archiveUnlisted(with writes: inout Writes?) throws {
            var afterSeq: Int64 = .min
            while true {
                let batch = try connection.query(
                    """
                    SELECT seq, handle, status FROM products INDEXED BY products_by_seq
                    WHERE seq > ?1 AND seq < ?2 AND seq = product_seq AND status <> 'archived' ORDER BY seq LIMIT ?3
                    """,
                    [afterSeq, firstNewSeq, Self.archiveBatchSize]
                ) { (seq: $0.int64(0), handle: $0.text(1), live: $0.text(2) == ProductStatus.active.rawValue) }
                guard let last = batch.last else { return }
                afterSeq = last.seq
                for product in batch where !listed.contains(product.seq) {
                    summary.archived += 1
                    guard writes != nil else { continue }
                    try writes!.archive(handle: product.handle)
                    if product.live { try writes!.searchIndex.unindex(productSeq: product.seq) }
                }
            }
        }

        private static var archiveBatchSize: Int { SQLiteCatalogImport.archiveBatch }
    }

    /// The import's writes, each a statement prepared once.
    private final class Writes {
        let connection: SQLiteConnection
        let searchMode: SQLiteSearchMode
        let stockChanges: StockChangeCause
        let appendLedgerRow: SQLiteStatement
        let insertProduct: SQLiteStatement
        /// UPDATEs of a product's variants by the columns they set (`updateProduct`), prepared when first needed.
        var updateProducts: [Int: SQLiteStatement] = [:]
        let updateVariantRow: SQLiteStatement
        let setStockLevel: SQLiteStatement
        let archiveProduct: SQLiteStatement
        /// The search index's changes (flushed before the import commits).
        let searchIndex: SQLiteSearchIndexWriter

        init(connection: SQLiteConnection, searchMode: SQLiteSearchMode, stockChanges: StockChangeCause) throws {
            self.connection = connection
            self.searchMode = searchMode
            self.stockChanges = stockChanges
            appendLedgerRow = try connection.prepare("""
                INSERT INTO stock_ledger (at, sku, delta, available_after, reason, order_id, source, actor)
                VALUES (?1, ?2, ?3, ?4, ?5, NULL, ?6, ?7)
                """)
            insertProduct = try connection.prepare("""
                INSERT INTO products (sku, name, description, category, price_cents, currency, seq, handle, product_seq, brand, status,
                                      archived, option_names, option_values)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)
                """)
            updateVariantRow = try connection.prepare("UPDATE products SET price_cents = ?2, option_values = ?3 WHERE sku = ?1")
            setStockLevel = try connection.prepare(
                "INSERT INTO stock (sku, available) VALUES (?1, ?2) ON CONFLICT (sku) DO UPDATE SET available = excluded.available")
            archiveProduct = try connection.prepare(
                "UPDATE products SET archived = 1, status = 'archived' WHERE sku IN \(SQLiteProductHandle.skus(ofHandlesIn: "(?1)"))")
            searchIndex = SQLiteSearchIndexWriter(connection: connection, searchMode: searchMode)
        }

        func insert(_ product: Product, status: ProductStatus, seq: Int64, productSeq: Int64, stock: Int) throws {
            try insertProduct.bind(product.sku, at: 1)
            try insertProduct.bind(product.name, at: 2)
            try insertProduct.bind(product.description, at: 3)
            try insertProduct.bind(product.category, at: 4)
            try insertProduct.bind(product.priceCents, at: 5)
            try insertProduct.bind(product.currency, at: 6)
            try insertProduct.bind(seq, at: 7)
            try insertProduct.bind(product.handle, at: 8)
            try insertProduct.bind(productSeq, at: 9)
            try insertProduct.bind(product.brand, at: 10)
            try insertProduct.bind(status.rawValue, at: 11)
            try insertProduct.bind(status == .active ? 0 : 1, at: 12)
            try insertProduct.bind(ShopRows.optionText(product.options.map(\.name)), at: 13)
            try insertProduct.bind(ShopRows.optionText(product.options.map(\.value)), at: 14)
            try insertProduct.runToEnd()
            try setStock(sku: product.sku, stock)
        }

        /// Sets the variant's own fields (price, option values) when they differ from `old`'s.
        func updateVariant(_ product: Product, from old: Product) throws {
            guard product.priceCents != old.priceCents || product.options != old.options else { return }
            try updateVariantRow.bind(product.sku, at: 1)
            try updateVariantRow.bind(product.priceCents, at: 2)
            try updateVariantRow.bind(ShopRows.optionText(product.options.map(\.value)), at: 3)
            try updateVariantRow.runToEnd()
        }

        /// Sets, on every variant of the product, the product columns that differ from `stored`'s,
        /// and only those: an UPDATE that names a column rewrites every index holding it, changed or not.
        func updateProduct(_ product: Product, status: ProductStatus, from stored: StoredProduct) throws {
            let old = stored.product
            let names = ShopRows.optionText(product.options.map(\.name))
            let changes = [old.name != product.name, old.description != product.description, old.category != product.category,
                           old.brand != product.brand, stored.status != status, old.options.map(\.name) != product.options.map(\.name)]
            let mask = changes.enumerated().reduce(0) { $1.element ? $0 | 1 << $1.offset : $0 }
            guard mask != 0 else { return }
            let statement: SQLiteStatement
            if let prepared = updateProducts[mask] {
                statement = prepared
            } else {
                let assignments = ["name = ?2", "description = ?3", "category = ?4", "brand = ?5", "status = ?6, archived = ?7", "option_names = ?8"]
                    .enumerated().filter { changes[$0.offset] }.map(\.element)
                statement = try connection.prepare(
                    "UPDATE products SET \(assignments.joined(separator: ", ")) WHERE sku IN \(SQLiteProductHandle.skus(ofHandlesIn: "(?1)"))")
                updateProducts[mask] = statement
            }
            try statement.bind(old.handle, at: 1)
            if changes[0] { try statement.bind(product.name, at: 2) }
            if changes[1] { try statement.bind(product.description, at: 3) }
            if changes[2] { try statement.bind(product.category, at: 4) }
            if changes[3] { try statement.bind(product.brand, at: 5) }
            if changes[4] {
                try statement.bind(status.rawValue, at: 6)
                try statement.bind(status == .active ? 0 : 1, at: 7)
            }
            if changes[5] { try statement.bind(names, at: 8) }
            try statement.runToEnd()
        }

        func setStock(sku: String, _ stock: Int) throws {
            try setStockLevel.bind(sku, at: 1)
            try setStockLevel.bind(stock, at: 2)
            try setStockLevel.runToEnd()
        }

        /// The ledger row of a level the import moved from `old` to `new` (none when they are equal:
        /// the writer connection holds the write lock, so `old` is the level being replaced).
        func recordStockChange(sku: String, from old: Int, to new: Int) throws {
            guard new != old else { return }
            try appendLedgerRow.bind([
                stockChanges.at, sku, new - old, new, stockChanges.reason.rawValue, stockChanges.source, stockChanges.actor,
            ])
            try appendLedgerRow.runToEnd()
        }

        func archive(handle: String) throws {
            try archiveProduct.bind(handle, at: 1)
            try archiveProduct.runToEnd()
        }
    }
}
