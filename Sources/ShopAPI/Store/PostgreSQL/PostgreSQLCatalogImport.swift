/// `ShopStore.importCatalog` on PostgreSQL: the file's rows applied with `CatalogRowMerge`'s
/// rules in one `READ COMMITTED` transaction, a batch at a time: the store's products for a
/// batch's SKUs are read in one query, each row decided here, new products copied (`COPY …
/// FROM STDIN`) straight into `products` and `stock`, and the other rows into a temporary table,
/// which a few set-wise statements apply at the end (changed products, stock and its ledger rows,
/// words, and `--replace`'s archiving). So the rules are written once, in Swift, and a million rows cost a
/// few thousand round trips.
///
/// New words reach the GIN index through its pending list (fast to append to, but read in full by
/// every search and costed so by the planner, which then scans the table instead), so the import
/// moves them into the index itself before it commits (`gin_clean_pending_list`).
///
/// Imports take a transaction-scoped advisory lock, so two never interleave. Servers on the
/// database keep reading the catalog as committed (MVCC) until the COMMIT, then see all of the
/// new one; a write of theirs that needs a row the import changed (an order taking stock) waits
/// for it at most `lock_timeout` and then fails with `.storeBusy`. A killed client leaves an open
/// transaction the server rolls back when the connection drops. After a large import the
/// planner's statistics are refreshed (`ANALYZE products`), since the search's plan depends on
/// them. One thread: the caller's, holding the connection.
struct PostgreSQLCatalogImport {
    /// Rows per batch.
    static let batchSize = 2000
    /// Key of the transaction-scoped advisory lock that serialises imports.
    static let importLockKey: Int64 = 0x5_0004_5136
    /// Changed rows after which `ANALYZE products` runs once the import commits.
    static let analyzeAfterRows = 10_000

    let connection: PostgreSQLConnection
    let options: CatalogImportOptions
    /// What the ledger rows of the levels this import changes record.
    let stockChanges: StockChangeCause
    /// Stops the import before it commits (checked between rows and before COMMIT; the store
    /// cancels its statements with `PQcancel`).
    var interruption: (any ShopInterruption)?
    /// When set, the database has no schema yet: it is created first, in the import's
    /// transaction, so a rollback (row errors, a dry run, a failure) takes it away with the rest.
    var schemaFirst: StoreCreation?

    func run<Source: CatalogRowSource>(_ source: inout Source, progress: (CatalogImportProgress) -> Void) throws -> CatalogImportOutcome {
        try connection.execute("BEGIN ISOLATION LEVEL READ COMMITTED")
        do {
            if let schemaFirst {
                try PostgreSQLSchema.migrateInOpenTransaction(connection, creation: schemaFirst)
            }
            try connection.execute(
                "SET LOCAL statement_timeout = 0; SET LOCAL lock_timeout = \(PostgreSQLConnection.lockTimeoutMilliseconds)")
            if !options.dryRun {
                _ = try connection.query("SELECT pg_advisory_xact_lock($1)", [Self.importLockKey]) { _ in () }
            }
            var pass = try Pass(connection: connection, options: options, stockChanges: stockChanges)
            let summary = try pass.importRows(&source, interruption: interruption, progress: progress)
            let commit = !options.dryRun && !source.hasErrors
            if commit {
                // The cancel that withInterrupts sends may still stop COMMIT itself, which then
                // fails and rolls back; once COMMIT has returned, the import is done whatever fires.
                if interruption?.isInterrupted == true { throw ShopError.interrupted }
                try connection.execute("COMMIT")
                // Best effort, after the commit: a failure here must not report the import as failed.
                if summary.created + summary.updated + summary.archived >= Self.analyzeAfterRows {
                    try? connection.execute("ANALYZE products")
                }
            } else {
                connection.rollbackIfInTransaction()
            }
            return CatalogImportOutcome(summary: summary, committed: commit)
        } catch {
            connection.rollbackIfInTransaction()
            throw error
        }
    }

    /// One import's state, inside its transaction.
    private struct Pass {
        let connection: PostgreSQLConnection
        let options: CatalogImportOptions
        let stockChanges: StockChangeCause
        var currency: String?
        let hadProducts: Bool
        var nextSeq: Int64
        let firstNewSeq: Int64
        var summary = CatalogImportSummary()
        var vocabulary = SearchVocabularyBuffer()
        /// Whether rows go to `import_rows`: when they are to be written, and for a dry run of
        /// `--replace` (to count what it would archive).
        let copiesRows: Bool

        init(connection: PostgreSQLConnection, options: CatalogImportOptions, stockChanges: StockChangeCause) throws {
            self.connection = connection
            self.options = options
            self.stockChanges = stockChanges
            currency = try connection.query("SELECT currency FROM products LIMIT 1", []) { $0.text(0) }.first
            hadProducts = currency != nil
            nextSeq = (try connection.query("SELECT coalesce(max(seq), 0) FROM products", []) { $0.int64(0) }.first ?? 0) + 1
            firstNewSeq = nextSeq
            copiesRows = !options.dryRun || options.replace
            try connection.execute("""
                CREATE TEMPORARY TABLE import_rows (
                    sku TEXT NOT NULL, kind TEXT NOT NULL, name TEXT, description TEXT, category TEXT,
                    price_cents BIGINT, currency TEXT, seq BIGINT, stock BIGINT, words tsvector
                ) ON COMMIT DROP;
                CREATE TEMPORARY TABLE import_words (word TEXT NOT NULL) ON COMMIT DROP;
                """)
        }

        mutating func importRows<Source: CatalogRowSource>(
            _ source: inout Source, interruption: (any ShopInterruption)?, progress: (CatalogImportProgress) -> Void
        ) throws -> CatalogImportSummary {
            var batch: [CatalogRow] = []
            batch.reserveCapacity(PostgreSQLCatalogImport.batchSize)
            var seen = 0
            while let row = try source.nextRow() {
                // A cancel stops a running statement only; between statements, this does.
                if interruption?.isInterrupted == true { throw ShopError.interrupted }
                seen += 1
                batch.append(row)
                if batch.count == PostgreSQLCatalogImport.batchSize {
                    try apply(batch, &source)
                    batch.removeAll(keepingCapacity: true)
                }
                if seen % CatalogImportProgress.rowInterval == 0 {
                    progress(CatalogImportProgress(rows: seen, bytesRead: source.bytesRead))
                }
            }
            try apply(batch, &source)
            progress(CatalogImportProgress(rows: seen, bytesRead: source.bytesRead, finishing: true))
            summary.finishWarnings(strict: options.strict, reportingTo: &source)
            if source.hasErrors { return summary }
            if options.replace { try archiveUnlisted() }
            if !options.dryRun { try write() }
            return summary
        }

        /// Decides every row of `batch` and copies what is to be written into `import_rows`.
        private mutating func apply<Source: CatalogRowSource>(_ batch: [CatalogRow], _ source: inout Source) throws {
            guard let first = batch.first else { return }
            let currency = self.currency ?? CatalogRowMerge.storeCurrency(existing: nil, firstRow: first)
            self.currency = currency
            let existing = hadProducts ? try find(batch.map(\.sku)) : [:]
            var created = PostgreSQLCopyRows()
            var createdStock = PostgreSQLCopyRows()
            var createdLedger = PostgreSQLCopyRows()
            var rows = PostgreSQLCopyRows()
            var words = PostgreSQLCopyRows()
            for row in batch {
                let stored = existing[SKUKey(row.sku)]
                let outcome = CatalogRowMerge.merge(row, into: stored, currency: currency)
                summary.count(row, outcome, currency: currency)
                if case let .rejected(errors) = outcome {
                    for error in errors { source.reportError(line: row.line, field: error.field, message: error.message) }
                }
                guard copiesRows, !source.hasErrors else { continue }
                switch outcome {
                case .rejected:
                    continue
                case let .create(product, stock):
                    guard !options.dryRun else { continue }
                    let productWords = SearchText.productWords(name: product.name, category: product.category)
                    appendNew(product, seq: nextSeq, words: productWords, to: &created)
                    createdStock.append(product.sku)
                    createdStock.append(stock)
                    createdStock.endRow()
                    if stock != 0 { appendLedgerRow(sku: product.sku, delta: stock, after: stock, to: &createdLedger) }
                    nextSeq += 1
                    addWords(productWords, to: &words)
                case let .update(product, stock):
                    let productWords = SearchText.productWords(name: product.name, category: product.category)
                    append(product, kind: "u", seq: stored?.seq ?? 0, stock: stock, words: productWords, to: &rows)
                    addWords(productWords, to: &words)
                case let .keep(stock):
                    guard stock != nil || options.replace else { continue }
                    rows.append(row.sku)
                    rows.append("k")
                    for _ in 0..<6 { rows.append(nil as String?) }
                    rows.append(stock)
                    rows.append(nil as String?)
                    rows.endRow()
                }
            }
            if !created.isEmpty {
                try connection.copyIn(
                    "COPY products (sku, name, description, category, price_cents, currency, seq, words) FROM STDIN", data: created.bytes)
                try connection.copyIn("COPY stock (sku, available) FROM STDIN", data: createdStock.bytes)
            }
            if !createdLedger.isEmpty {
                try connection.copyIn(
                    "COPY stock_ledger (at, sku, delta, available_after, reason, source, actor) FROM STDIN", data: createdLedger.bytes)
            }
            if !rows.isEmpty {
                try connection.copyIn(
                    "COPY import_rows (sku, kind, name, description, category, price_cents, currency, seq, stock, words) FROM STDIN",
                    data: rows.bytes)
            }
            if !words.isEmpty {
                try connection.copyIn("COPY import_words (word) FROM STDIN", data: words.bytes)
            }
        }

        /// A ledger row of this import, as a row of `stock_ledger`.
        private func appendLedgerRow(sku: String, delta: Int, after: Int, to rows: inout PostgreSQLCopyRows) {
            rows.append(stockChanges.at)
            rows.append(sku)
            rows.append(delta)
            rows.append(after)
            rows.append(stockChanges.reason.rawValue)
            rows.append(stockChanges.source)
            rows.append(stockChanges.actor)
            rows.endRow()
        }

        /// A new product, as a row of `products`.
        private func appendNew(_ product: Product, seq: Int64, words: [String], to rows: inout PostgreSQLCopyRows) {
            rows.append(product.sku)
            rows.append(product.name)
            rows.append(product.description)
            rows.append(product.category)
            rows.append(product.priceCents)
            rows.append(product.currency)
            rows.append(seq)
            rows.append(PostgreSQLWords.tsvector(words))
            rows.endRow()
        }

        private func append(_ product: Product, kind: String, seq: Int64, stock: Int?, words: [String], to rows: inout PostgreSQLCopyRows) {
            rows.append(product.sku)
            rows.append(kind)
            rows.append(product.name)
            rows.append(product.description)
            rows.append(product.category)
            rows.append(product.priceCents)
            rows.append(product.currency)
            rows.append(seq)
            rows.append(stock)
            rows.append(PostgreSQLWords.tsvector(words))
            rows.endRow()
        }

        /// Adds `productWords` to the vocabulary; a full batch of new words is copied out.
        private mutating func addWords(_ productWords: [String], to copy: inout PostgreSQLCopyRows) {
            vocabulary.add(productWords) { full in
                for word in full {
                    copy.append(word)
                    copy.endRow()
                }
            }
        }

        /// The products the store has under `skus`, archived or not, by SKU.
        private func find(_ skus: [String]) throws -> [SKUKey: StoredProduct] {
            let rows = try connection.query(
                """
                SELECT p.sku, p.name, p.description, p.category, p.price_cents, p.currency, p.archived, p.seq, coalesce(s.available, 0)
                FROM products p LEFT JOIN stock s ON s.sku = p.sku WHERE p.sku = ANY($1::text[])
                """,
                [PostgreSQLTextArray(skus)]
            ) { row in
                StoredProduct(
                    product: ShopRows.product(row), stock: row.int(8), archived: row.raw(6) == "t", seq: row.int64(7))
            }
            var found: [SKUKey: StoredProduct] = [:]
            for product in rows { found[SKUKey(product.product.sku)] = product }
            return found
        }

        /// `--replace`: archives (a dry run: counts) every product in the catalog before this
        /// import that the file did not list.
        private mutating func archiveUnlisted() throws {
            try connection.execute("ANALYZE import_rows")
            let unlisted = "NOT p.archived AND p.seq < $1 AND NOT EXISTS (SELECT 1 FROM import_rows r WHERE r.sku = p.sku)"
            if options.dryRun {
                summary.archived = try connection.query("SELECT count(*) FROM products p WHERE \(unlisted)", [firstNewSeq]) { $0.int(0) }.first ?? 0
            } else {
                summary.archived = try connection.run("UPDATE products p SET archived = true WHERE \(unlisted)", [firstNewSeq])
            }
        }

        /// Sets the levels `import_rows` gives, each with its ledger row, in one statement: the stock
        /// rows are locked first in SKU order (`COLLATE "C"`, the order every stock writer keeps)
        /// and their levels read as locked, so each delta is from the level the import replaces,
        /// whatever orders changed it since the rows were decided.
        private func setStockWithLedgerRows() throws {
            try connection.run(
                """
                WITH locked AS (
                    SELECT s.sku, s.available FROM stock s JOIN import_rows r ON r.sku = s.sku
                    WHERE r.stock IS NOT NULL ORDER BY s.sku COLLATE "C" FOR UPDATE OF s
                ), changed AS (
                    UPDATE stock s SET available = r.stock FROM import_rows r, locked l
                    WHERE r.stock IS NOT NULL AND s.sku = r.sku AND l.sku = r.sku AND l.available <> r.stock
                    RETURNING s.sku, r.stock - l.available AS delta, r.stock AS after
                )
                INSERT INTO stock_ledger (at, sku, delta, available_after, reason, source, actor)
                SELECT $1, sku, delta, after, $2, $3, $4 FROM changed
                """,
                [stockChanges.at, stockChanges.reason.rawValue, stockChanges.source, stockChanges.actor]
            )
        }

        /// Applies `import_rows` and the new words to the store.
        private mutating func write() throws {
            var words = PostgreSQLCopyRows()
            vocabulary.finish { rest in
                for word in rest {
                    words.append(word)
                    words.endRow()
                }
            }
            if !words.isEmpty {
                try connection.copyIn("COPY import_words (word) FROM STDIN", data: words.bytes)
            }
            if !options.replace { try connection.execute("ANALYZE import_rows") }
            try connection.execute("""
                UPDATE products p SET name = r.name, description = r.description, category = r.category,
                        price_cents = r.price_cents, archived = false, words = r.words
                    FROM import_rows r WHERE r.kind = 'u' AND p.sku = r.sku;
                INSERT INTO stock (sku, available) SELECT sku, 0 FROM import_rows WHERE stock IS NOT NULL
                    ON CONFLICT (sku) DO NOTHING;
                INSERT INTO search_vocabulary (word) SELECT DISTINCT word FROM import_words ON CONFLICT DO NOTHING;
                SELECT gin_clean_pending_list('products_words');
                """)
            try setStockWithLedgerRows()
        }
    }

    /// A SKU compared byte for byte, as the database and the file reader compare them (Swift's
    /// `String ==` would call two encodings of "é" equal).
    private struct SKUKey: Hashable {
        let bytes: [UInt8]
        init(_ sku: String) { bytes = Array(sku.utf8) }
    }
}
