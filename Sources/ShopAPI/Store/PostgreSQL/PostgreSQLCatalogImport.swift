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
    /// Rows with the lexemes of the product each would create, made ahead.
    private typealias AnalyzedRows = AnalyzedCatalogRows<PostgreSQLSearchTerms.Lexemes>

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
        /// The search index's counts and the products to index again (`PostgreSQLSearchIndex`).
        var searchIndex: PostgreSQLSearchIndex
        /// Whether rows go to `import_rows`: when they are to be written, and for a dry run of
        /// `--replace` (to count what it would archive).
        let copiesRows: Bool
        /// Order of the product changes copied to `import_products` (the last for a handle wins).
        var productChangeNumber: Int64 = 0

        init(connection: PostgreSQLConnection, options: CatalogImportOptions, stockChanges: StockChangeCause) throws {
            self.connection = connection
            self.options = options
            self.stockChanges = stockChanges
            currency = try connection.query("SELECT currency FROM products LIMIT 1", []) { $0.text(0) }.first
            hadProducts = currency != nil
            nextSeq = (try connection.query("SELECT coalesce(max(seq), 0) FROM products", []) { $0.int64(0) }.first ?? 0) + 1
            firstNewSeq = nextSeq
            copiesRows = !options.dryRun || options.replace
            // import_rows: a variant's own changes ('u'), a level or a listing only ('k'), a
            // product listed through a new variant of it ('l', the SKU of a variant it has).
            // import_products: product fields set on every variant of a handle, in order `n`.
            try connection.execute("""
                CREATE TEMPORARY TABLE import_rows (
                    sku TEXT NOT NULL, kind TEXT NOT NULL, price_cents BIGINT, option_values TEXT, stock BIGINT
                ) ON COMMIT DROP;
                CREATE TEMPORARY TABLE import_products (
                    n BIGINT NOT NULL, handle TEXT NOT NULL, name TEXT NOT NULL, description TEXT NOT NULL, category TEXT NOT NULL,
                    brand TEXT NOT NULL, status TEXT NOT NULL, option_names TEXT NOT NULL, words tsvector NOT NULL
                ) ON COMMIT DROP;
                CREATE TEMPORARY TABLE import_words (word TEXT NOT NULL) ON COMMIT DROP;
                """)
            searchIndex = try PostgreSQLSearchIndex(connection: connection)
        }

        mutating func importRows<Source: CatalogRowSource>(
            _ source: inout Source, interruption: (any ShopInterruption)?, progress: (CatalogImportProgress) -> Void
        ) throws -> CatalogImportSummary {
            var batch: [AnalyzedRows.Row] = []
            batch.reserveCapacity(PostgreSQLCatalogImport.batchSize)
            var seen = 0
            var rows = AnalyzedRows(analysing: !options.dryRun, entry: PostgreSQLSearchTerms.lexemes(of:))
            while let row = try rows.next(from: &source) {
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

        /// What a batch copies out, one buffer per table.
        private struct BatchCopies {
            var created = PostgreSQLCopyRows()
            var createdStock = PostgreSQLCopyRows()
            var createdLedger = PostgreSQLCopyRows()
            var rows = PostgreSQLCopyRows()
            var products = PostgreSQLCopyRows()
            var words = PostgreSQLCopyRows()
            /// Products a new variant joined: indexed again with its SKU at the end (`search_reindex`).
            var reindex = PostgreSQLCopyRows()
        }

        /// Decides every row of `batch` and copies what is to be written into `import_rows` and
        /// `import_products`. A product created or changed by an earlier row of the batch is
        /// taken as that row left it (`decided`); one of an earlier batch is read back from
        /// `products` (new variants are copied there at once; product changes wait in
        /// `import_products`, and a later row that repeats one writes it again).
        private mutating func apply<Source: CatalogRowSource>(_ analyzed: [AnalyzedRows.Row], _ source: inout Source) throws {
            let batch = analyzed.map(\.row)
            guard let first = batch.first else { return }
            let currency = self.currency ?? CatalogRowMerge.storeCurrency(existing: nil, firstRow: first)
            self.currency = currency
            let existing = hadProducts ? try find(batch.map(\.sku)) : [:]
            let handles = batch.compactMap { existing[SKUKey($0.sku)] == nil ? $0.handle : nil }
            let siblings = hadProducts || nextSeq > firstNewSeq ? try findFirstVariants(handles) : [:]
            let taken = try variantsWithValues(batch, existing: existing, siblings: siblings)
            var decided: [String: StoredProduct] = [:]
            var copies = BatchCopies()
            for (row, analysis) in zip(batch, analyzed.lazy.map(\.analysis)) {
                var stored = existing[SKUKey(row.sku)]
                if let known = stored, let product = decided[known.product.handle] { stored = known.withProductFields(of: product) }
                let sibling = stored == nil ? row.handle.flatMap { decided[$0] ?? siblings[$0] } : nil
                let base = stored ?? sibling
                let takenBy = base.flatMap { base in
                    CatalogRowMerge.needsValuesCheck(row, existing: stored)
                        ? taken[ValuesKey(handle: base.product.handle, values: ShopRows.optionText(row.optionValues ?? []))].flatMap { $0 == row.sku ? nil : $0 }
                        : nil
                }
                let outcome = CatalogRowMerge.merge(row, into: stored, sibling: sibling, valuesTakenBy: takenBy, currency: currency)
                summary.count(row, outcome, currency: currency)
                if case let .rejected(errors) = outcome {
                    for error in errors { source.reportError(line: row.line, field: error.field, message: error.message) }
                }
                guard copiesRows, !source.hasErrors else { continue }
                switch outcome {
                case .rejected:
                    continue
                case let .create(product, status, stock, joining, productChanged):
                    let seq = nextSeq
                    let decision = StoredProduct(product: product, stock: stock, status: status, seq: seq, productSeq: joining ?? seq)
                    decided[product.handle] = decision
                    if let sibling, options.replace { appendListing(sku: sibling.product.sku, to: &copies.rows) }
                    guard !options.dryRun else { continue }
                    let productWords = SearchText.productWords(name: product.name, category: product.category)
                    let searchWords = try joining == nil ? searchLexemes(ofNew: decision, ahead: analysis) : ""
                    appendNew(decision, words: joining == nil ? productWords : [], searchWords: searchWords, to: &copies.created)
                    copies.createdStock.append(product.sku)
                    copies.createdStock.append(stock)
                    copies.createdStock.endRow()
                    if stock != 0 { appendLedgerRow(sku: product.sku, delta: stock, after: stock, to: &copies.createdLedger) }
                    nextSeq += 1
                    if joining == nil {
                        addWords(productWords, to: &copies.words)
                    } else if productChanged {
                        appendProductChange(decision, to: &copies)
                    }
                    if let joining {
                        copies.reindex.append(joining)
                        copies.reindex.endRow()
                    }
                case let .update(product, status, stock, productChanged):
                    guard let stored else { continue }
                    copies.rows.append(row.sku)
                    copies.rows.append("u")
                    copies.rows.append(product.priceCents)
                    copies.rows.append(ShopRows.optionText(product.options.map(\.value)))
                    copies.rows.append(stock)
                    copies.rows.endRow()
                    if productChanged {
                        let decision = StoredProduct(product: product, stock: stored.stock, status: status, seq: stored.seq, productSeq: stored.productSeq)
                        decided[product.handle] = decision
                        appendProductChange(decision, to: &copies)
                    }
                case let .keep(stock):
                    guard stock != nil || options.replace else { continue }
                    copies.rows.append(row.sku)
                    copies.rows.append("k")
                    copies.rows.append(nil as Int?)
                    copies.rows.append(nil as String?)
                    copies.rows.append(stock)
                    copies.rows.endRow()
                }
            }
            if !copies.created.isEmpty {
                try connection.copyIn(
                    """
                    COPY products (sku, name, description, category, price_cents, currency, seq, words, handle, product_seq, brand, status,
                                   archived, option_names, option_values, search_words) FROM STDIN
                    """, data: copies.created.bytes)
                try connection.copyIn("COPY stock (sku, available) FROM STDIN", data: copies.createdStock.bytes)
            }
            if !copies.createdLedger.isEmpty {
                try connection.copyIn(
                    "COPY stock_ledger (at, sku, delta, available_after, reason, source, actor) FROM STDIN", data: copies.createdLedger.bytes)
            }
            if !copies.rows.isEmpty {
                try connection.copyIn("COPY import_rows (sku, kind, price_cents, option_values, stock) FROM STDIN", data: copies.rows.bytes)
            }
            if !copies.products.isEmpty {
                try connection.copyIn(
                    "COPY import_products (n, handle, name, description, category, brand, status, option_names, words) FROM STDIN",
                    data: copies.products.bytes)
            }
            if !copies.words.isEmpty {
                try connection.copyIn("COPY import_words (word) FROM STDIN", data: copies.words.bytes)
            }
            if !copies.reindex.isEmpty {
                try connection.copyIn("COPY search_reindex (product_seq) FROM STDIN", data: copies.reindex.bytes)
            }
        }

        /// The `search_words` of a new product's first variant (its only SKU so far; a variant
        /// that joins it later has it indexed again), its words counted when it is live; `ahead`
        /// may have them, made ahead.
        private mutating func searchLexemes(ofNew variant: StoredProduct, ahead: AnalyzedRows.Analysis?) throws -> String {
            let document = PostgreSQLSearchIndex.document(of: variant.product, skus: variant.product.sku)
            let lexemes = ahead?.entry(of: document) ?? PostgreSQLSearchTerms.lexemes(of: document)
            if !variant.archived { try searchIndex.countLive(lexemes.words) }
            return lexemes.tsvector
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

        /// A row of `import_rows` that only says the product of `sku` is listed (`--replace`).
        private func appendListing(sku: String, to rows: inout PostgreSQLCopyRows) {
            rows.append(sku)
            rows.append("l")
            rows.append(nil as Int?)
            rows.append(nil as String?)
            rows.append(nil as Int?)
            rows.endRow()
        }

        /// A new variant, as a row of `products`; `words` and `searchWords` are its product's for a
        /// first variant, else empty.
        private func appendNew(_ variant: StoredProduct, words: [String], searchWords: String, to rows: inout PostgreSQLCopyRows) {
            let product = variant.product
            rows.append(product.sku)
            rows.append(product.name)
            rows.append(product.description)
            rows.append(product.category)
            rows.append(product.priceCents)
            rows.append(product.currency)
            rows.append(variant.seq)
            rows.append(PostgreSQLWords.tsvector(words))
            rows.append(product.handle)
            rows.append(variant.productSeq)
            rows.append(product.brand)
            rows.append(variant.status.rawValue)
            rows.append(variant.archived ? "t" : "f")
            rows.append(ShopRows.optionText(product.options.map(\.name)))
            rows.append(ShopRows.optionText(product.options.map(\.value)))
            rows.append(searchWords)
            rows.endRow()
        }

        /// The product fields of `decision` for every variant of its handle, as a row of
        /// `import_products`, and its words to the vocabulary.
        private mutating func appendProductChange(_ decision: StoredProduct, to copies: inout BatchCopies) {
            let product = decision.product
            let productWords = SearchText.productWords(name: product.name, category: product.category)
            productChangeNumber += 1
            copies.products.append(Int(productChangeNumber))
            copies.products.append(product.handle)
            copies.products.append(product.name)
            copies.products.append(product.description)
            copies.products.append(product.category)
            copies.products.append(product.brand)
            copies.products.append(decision.status.rawValue)
            copies.products.append(ShopRows.optionText(product.options.map(\.name)))
            copies.products.append(PostgreSQLWords.tsvector(productWords))
            copies.products.endRow()
            addWords(productWords, to: &copies.words)
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

        /// The variants the store has under `skus`, whatever their status, by SKU.
        private func find(_ skus: [String]) throws -> [SKUKey: StoredProduct] {
            let rows = try connection.query(
                "SELECT \(ShopRows.storedProductColumns) FROM products p LEFT JOIN stock s ON s.sku = p.sku WHERE p.sku = ANY($1::text[])",
                [PostgreSQLTextArray(skus)], row: ShopRows.storedProduct
            )
            var found: [SKUKey: StoredProduct] = [:]
            for product in rows { found[SKUKey(product.product.sku)] = product }
            return found
        }

        /// The variants the store has (by handle and option values: their SKU) with the option
        /// values a row of `batch` gives for a product the store has, in one query.
        private func variantsWithValues(_ batch: [CatalogRow], existing: [SKUKey: StoredProduct],
                                        siblings: [String: StoredProduct]) throws -> [ValuesKey: String] {
            var handles: [String] = []
            var values: [String] = []
            for row in batch {
                let stored = existing[SKUKey(row.sku)]
                guard let base = stored ?? row.handle.flatMap({ siblings[$0] }), CatalogRowMerge.needsValuesCheck(row, existing: stored) else { continue }
                handles.append(base.product.handle)
                values.append(ShopRows.optionText(row.optionValues ?? []))
            }
            guard !handles.isEmpty else { return [:] }
            let rows = try connection.query(
                """
                SELECT p.handle, p.option_values, p.sku FROM products p
                JOIN unnest($1::text[], $2::text[]) AS w (handle, option_values) ON p.handle = w.handle AND p.option_values = w.option_values
                """,
                [PostgreSQLTextArray(handles), PostgreSQLTextArray(values)]
            ) { (key: ValuesKey(handle: $0.text(0), values: $0.text(1)), sku: $0.text(2)) }
            var found: [ValuesKey: String] = [:]
            for row in rows { found[row.key] = row.sku }
            return found
        }

        /// The first variant of each product of `handles` the store has, by handle.
        private func findFirstVariants(_ handles: [String]) throws -> [String: StoredProduct] {
            guard !handles.isEmpty else { return [:] }
            let rows = try connection.query(
                """
                SELECT DISTINCT ON (p.handle) \(ShopRows.storedProductColumns) FROM products p LEFT JOIN stock s ON s.sku = p.sku
                WHERE p.handle = ANY($1::text[]) ORDER BY p.handle, p.seq
                """,
                [PostgreSQLTextArray(handles)], row: ShopRows.storedProduct
            )
            var found: [String: StoredProduct] = [:]
            for product in rows { found[product.product.handle] = product }
            return found
        }

        /// `--replace`: archives (a dry run: counts) every product of the store before this
        /// import, not archived yet, none of whose variants the file lists (in `import_rows`, or
        /// a variant this import added to it).
        private mutating func archiveUnlisted() throws {
            try connection.execute("ANALYZE import_rows")
            let unlisted = """
                SELECT l.handle FROM products l
                WHERE l.seq = l.product_seq AND l.seq < $1 AND l.status <> 'archived' AND NOT EXISTS (
                    SELECT 1 FROM products v WHERE v.handle = l.handle
                    AND (v.seq >= $1 OR EXISTS (SELECT 1 FROM import_rows r WHERE r.sku = v.sku)))
                """
            if options.dryRun {
                summary.archived = try connection.query("SELECT count(*) FROM (\(unlisted)) u", [firstNewSeq]) { $0.int(0) }.first ?? 0
            } else {
                summary.archived = try connection.query(
                    """
                    WITH unlisted AS (\(unlisted)), searched AS (
                        \(PostgreSQLSearchIndex.subtractingLiveWords(ofProductsIn: "SELECT l.seq FROM products l JOIN unlisted u ON l.handle = u.handle"))
                    ), archived AS (
                        UPDATE products p SET archived = true, status = 'archived' FROM unlisted u WHERE p.handle = u.handle RETURNING 1
                    ) SELECT count(*) FROM unlisted
                    """, [firstNewSeq]) { $0.int(0) }.first ?? 0
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

        /// Applies `import_rows`, `import_products` (the last change of each handle, to every
        /// variant of it; words on its first variant only) and the new words to the store.
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
            try searchIndex.beforeProductChanges()
            try connection.execute("""
                UPDATE products p SET price_cents = r.price_cents, option_values = r.option_values
                    FROM import_rows r WHERE r.kind = 'u' AND p.sku = r.sku;
                UPDATE products p SET name = c.name, description = c.description, category = c.category, brand = c.brand,
                        status = c.status, archived = c.status <> 'active', option_names = c.option_names,
                        words = CASE WHEN p.seq = p.product_seq THEN c.words ELSE ''::tsvector END
                    FROM (SELECT DISTINCT ON (handle) * FROM import_products ORDER BY handle, n DESC) c WHERE p.handle = c.handle;
                INSERT INTO stock (sku, available) SELECT sku, 0 FROM import_rows WHERE stock IS NOT NULL
                    ON CONFLICT (sku) DO NOTHING;
                INSERT INTO search_vocabulary (word) SELECT DISTINCT word FROM import_words ON CONFLICT DO NOTHING;
                SELECT gin_clean_pending_list('products_words');
                """)
            try searchIndex.afterProductChanges()
            try setStockWithLedgerRows()
        }
    }

    /// A product's handle and a variant's stored option values (`ShopRows.optionText`).
    private struct ValuesKey: Hashable {
        let handle: String
        let values: String
    }

    /// A SKU compared byte for byte, as the database and the file reader compare them (Swift's
    /// `String ==` would call two encodings of "é" equal).
    private struct SKUKey: Hashable {
        let bytes: [UInt8]
        init(_ sku: String) { bytes = Array(sku.utf8) }
    }
}
