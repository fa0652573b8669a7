/// The shop's primitive reads and writes as SQL on one PostgreSQL connection, inside a
/// transaction the store opened. Used only on the thread holding the connection, only during the
/// transaction. Orders are not placed through it but by `shop_place_order`
/// (`PostgreSQLOrderFunction`), so it is no `ShopOrderTransaction`.
///
/// Checks `interruption` before every statement (`PQcancel` only stops a statement that is
/// running, so a cancel between statements would otherwise be missed).
struct PostgreSQLShopTransaction: ShopWriteTransaction {
    let connection: PostgreSQLConnection
    let interruption: (any ShopInterruption)?
    var searchLimits = PostgreSQLSearchLimits()


    // MARK: - Products and stock

    /// The first variants of live products (`seq = product_seq`, not archived), through the
    /// partial indexes that hold exactly those: by category, or in `seq` order. Each with its
    /// level and one probe of `products_by_handle` for other variants.
    func products(afterSeq: Int64?, category: String?, limit: Int) throws -> [(seq: Int64, listed: ListedProduct)] {
        let row = { (row: PostgreSQLRow) in (seq: row.int64(0), listed: Self.listedProduct(row)) }
        if let category {
            return try query(
                Self.listed("""
                    SELECT * FROM products p
                    WHERE NOT p.archived AND p.seq = p.product_seq AND p.category = $1 AND p.seq > $2 ORDER BY p.seq LIMIT $3
                    """),
                [category, afterSeq ?? .min, limit], row: row
            )
        }
        return try query(
            Self.listed("""
                SELECT * FROM products p WHERE NOT p.archived AND p.seq = p.product_seq AND p.seq > $1 ORDER BY p.seq LIMIT $2
                """),
            [afterSeq ?? .min, limit], row: row
        )
    }

    func productCount(category: String?) throws -> Int {
        if let category {
            return try query("SELECT count(*) FROM products WHERE NOT archived AND seq = product_seq AND category = $1", [category]) {
                $0.int(0)
            }.first ?? 0
        }
        return try query("SELECT count(*) FROM products WHERE NOT archived AND seq = product_seq", []) { $0.int(0) }.first ?? 0
    }

    func product(sku: String) throws -> Product? {
        try query("SELECT \(ShopRows.productColumns) FROM products p WHERE p.sku = $1 AND NOT p.archived", [sku], row: ShopRows.product).first
    }

    /// The rows of `page` (a query of `products`' rows, `p.*`, in catalog order, with a `LIMIT`)
    /// as `listedProduct` reads them: `seq`, the product columns, the level and whether the
    /// product has other variants (one probe of `products_by_handle`). The page is a subquery so
    /// that the join and the probes are made for its rows alone, whatever the planner thinks of it.
    private static func listed(_ page: String) -> String {
        """
        SELECT p.seq, \(ShopRows.productColumns), coalesce(s.available, 0),
               (EXISTS (SELECT 1 FROM products o WHERE o.handle = p.handle AND o.seq <> p.seq))::int
        FROM (\(page)) p LEFT JOIN stock s ON s.sku = p.sku ORDER BY p.seq
        """
    }

    /// A row of a `listed` query.
    private static func listedProduct(_ row: PostgreSQLRow) -> ListedProduct {
        ShopRows.listedProduct(ShopRows.Offset(row, by: 1))
    }

    func variantChoices(handles: [String]) throws -> [String: [VariantChoice]] {
        guard !handles.isEmpty else { return [:] }
        let rows = try query(
            """
            SELECT \(ShopRows.productColumns), coalesce(s.available, 0) FROM products p LEFT JOIN stock s ON s.sku = p.sku
            WHERE p.handle = ANY($1::text[]) AND NOT p.archived ORDER BY p.handle, p.seq
            """,
            [PostgreSQLTextArray(handles)], row: ShopRows.variantChoice
        )
        var byHandle: [String: [VariantChoice]] = [:]
        for (handle, choice) in rows { byHandle[handle, default: []].append(choice) }
        return byHandle
    }

    func productVariants(handle: String) throws -> [(product: Product, available: Int)] {
        try query(
            """
            SELECT \(ShopRows.productColumns), coalesce(s.available, 0) FROM products p LEFT JOIN stock s ON s.sku = p.sku
            WHERE p.handle = $1 AND NOT p.archived ORDER BY p.seq
            """,
            [handle]
        ) { row in (product: ShopRows.product(row), available: row.int(ShopRows.productColumnCount)) }
    }

    /// A search in catalog order, in at most three steps, each bounded, so its cost does not hang
    /// on the planner's guess of how many products have the words (for a word it has no
    /// statistics of, it assumes a fixed share, and a prefix standing for 64 rare words looks
    /// common to it):
    ///
    /// Only a product's first variant has words (`PostgreSQLSchema`, version 8), so each product
    /// is found once.
    ///
    /// 1. the first products in catalog order (`seq`'s index), at most
    ///    `searchLimits.rowsToCheck(words:)` of them (fewer the more words the query has: each row
    ///    is checked against all of them): when the words are common, the first `limit` matches
    ///    are among them;
    /// 2. else the products the GIN index of `words` finds, at most `searchLimits.matchesToFetch`
    ///    of them (`PostgreSQLSchema`, version 5): when they are all, the first `limit` in catalog
    ///    order are the answer;
    /// 3. else (many matches, but few among the first products) the catalog in order from where
    ///    step 1 stopped, until `limit` match.
    func searchProducts(wordGroups: [[String]], limit: Int) throws -> [ListedProduct] {
        let tsquery = PostgreSQLWords.tsquery(wordGroups: wordGroups)
        let rowsToCheck = searchLimits.rowsToCheck(words: wordGroups.reduce(0) { $0 + $1.count })
        let first = try query(
            Self.listed("""
                SELECT p.* FROM (
                    SELECT * FROM products WHERE NOT archived AND seq = product_seq ORDER BY seq LIMIT $3
                ) p WHERE p.words @@ $1::tsquery ORDER BY p.seq LIMIT $2
                """),
            [tsquery, limit, rowsToCheck], prepared: false, row: Self.listedProduct
        )
        if first.count == limit { return first }

        try plannerSettings(["enable_seqscan": "off", "enable_indexscan": "off"])
        let matches = try query(
            "SELECT p.seq FROM products p WHERE NOT p.archived AND p.words @@ $1::tsquery LIMIT $2",
            [tsquery, searchLimits.matchesToFetch + 1], prepared: false
        ) { $0.int64(0) }
        try plannerSettings(["enable_seqscan": "on", "enable_indexscan": "on"])
        if matches.count <= searchLimits.matchesToFetch {
            let seqs = matches.sorted().prefix(limit).map(String.init).joined(separator: ",")
            return try query(
                Self.listed("SELECT * FROM products p WHERE p.seq = ANY($1::bigint[]) ORDER BY p.seq LIMIT $2"),
                [PostgreSQLTextArray(raw: "{\(seqs)}"), limit], row: Self.listedProduct)
        }

        try plannerSettings(["enable_bitmapscan": "off"])
        defer { try? plannerSettings(["enable_bitmapscan": "on"]) }
        return try query(
            Self.listed("SELECT * FROM products p WHERE NOT p.archived AND p.words @@ $1::tsquery ORDER BY p.seq LIMIT $2"),
            [tsquery, limit], prepared: false, row: Self.listedProduct
        )
    }

    /// Sets planner settings for the rest of the transaction (`set_config(…, true)`).
    private func plannerSettings(_ settings: KeyValuePairs<String, String>) throws {
        let calls = settings.enumerated().map { "set_config($\(2 * $0.offset + 1), $\(2 * $0.offset + 2), true)" }
        let arguments: [any PostgreSQLValue] = settings.flatMap { [$0.key, $0.value] as [any PostgreSQLValue] }
        _ = try query("SELECT \(calls.joined(separator: ", "))", arguments) { _ in () }
    }

    func indexedWords(beginningWith prefix: String, limit: Int) throws -> [String] {
        try query(
            "SELECT word FROM search_vocabulary WHERE word >= $1 AND word < $2 ORDER BY word LIMIT $3",
            [prefix, SearchMatching.upperBound(ofPrefix: prefix), limit]
        ) { $0.text(0) }
    }

    func available(sku: String) throws -> Int? {
        try query(
            "SELECT s.available FROM stock s JOIN products p ON p.sku = s.sku WHERE s.sku = $1 AND NOT p.archived", [sku]
        ) { $0.int(0) }.first
    }

    func catalogCurrency() throws -> String? {
        try query("SELECT currency FROM products LIMIT 1", []) { $0.text(0) }.first
    }

    func searchSynonymsJSON() throws -> String? {
        try query("SELECT synonyms FROM search_synonyms WHERE id = 1", []) { $0.text(0) }.first
    }

    // MARK: - Carts

    func cartLines(cartId: String) throws -> [CartLine] {
        try query("SELECT sku, quantity, unit_price_cents FROM cart_lines WHERE cart_id = $1 ORDER BY id", [cartId], row: ShopRows.line)
    }

    /// A transaction-scoped advisory lock on the cart (`PostgreSQLCartLock`), the same one
    /// `shop_place_order` takes first.
    func lockCart(cartId: String) throws {
        _ = try query(PostgreSQLCartLock.statement, [cartId]) { _ in () }
    }

    func setCartLine(cartId: String, line: CartLine) throws {
        try run(
            """
            INSERT INTO cart_lines (cart_id, sku, quantity, unit_price_cents) VALUES ($1, $2, $3, $4)
            ON CONFLICT (cart_id, sku) DO UPDATE SET quantity = excluded.quantity, unit_price_cents = excluded.unit_price_cents
            """,
            [cartId, line.sku, line.quantity, line.unitPriceCents]
        )
    }

    func removeCartLine(cartId: String, sku: String) throws {
        try run("DELETE FROM cart_lines WHERE cart_id = $1 AND sku = $2", [cartId, sku])
    }

    func clearCart(cartId: String) throws {
        try run("DELETE FROM cart_lines WHERE cart_id = $1", [cartId])
    }

    // MARK: - Stock and its ledger

    /// `SELECT … FOR UPDATE` of the stock row alone (the product's row is only read): the stock
    /// row stays locked until the transaction ends. Nil for an archived product, as `available`.
    func lockStock(sku: String) throws -> Int? {
        try query(
            "SELECT s.available FROM stock s JOIN products p ON p.sku = s.sku WHERE s.sku = $1 AND NOT p.archived FOR UPDATE OF s", [sku]
        ) { $0.int(0) }.first
    }

    /// One statement: the conditional UPDATE (a concurrent writer of the row makes it wait, then
    /// re-check) and, from the level it returns, the ledger row.
    func changeStock(sku: String, by delta: Int, onlyIfListed: Bool, cause: StockChangeCause) throws -> Int? {
        try query(
            """
            WITH changed AS (
                UPDATE stock s SET available = s.available + $2
                WHERE s.sku = $1 AND s.available + $2 >= 0
                  AND NOT ($8 AND EXISTS (SELECT 1 FROM products p WHERE p.sku = s.sku AND p.archived))
                RETURNING s.available
            )
            INSERT INTO stock_ledger (at, sku, delta, available_after, reason, order_id, source, actor)
            SELECT $3, $1, $2, changed.available, $4, $5, $6, $7 FROM changed
            RETURNING available_after
            """,
            [sku, delta, cause.at, cause.reason.rawValue, cause.orderId, cause.source, cause.actor, onlyIfListed ? "true" : "false"]
        ) { $0.int(0) }.first
    }

    func stockMovements(afterSequence: Int64, since: String?, limit: Int) throws -> [StockMovement] {
        try query(
            "SELECT \(ShopRows.movementColumns) FROM stock_ledger WHERE seq > $1 AND at >= $2 COLLATE \"C\" ORDER BY seq LIMIT $3",
            [afterSequence, since ?? "", limit], row: ShopRows.movement
        )
    }

    // MARK: - Products

    /// As `import --replace` archives (`PostgreSQLCatalogImport`): the status and flag of every
    /// variant of the product, which takes it out of the word indexes too (they cover the
    /// products not archived). A live product's first variant is locked first (a second archiver
    /// waits, then finds it archived), and its words leave the vocabulary's counts.
    func archiveProduct(sku: String) throws -> ProductArchiving {
        let live = try query(
            """
            SELECT p.seq FROM products p
            WHERE p.handle = (SELECT handle FROM products WHERE sku = $1) AND p.seq = p.product_seq AND NOT p.archived FOR UPDATE
            """, [sku]) { $0.int64(0) }.first
        if let live {
            let gone = """
                SELECT DISTINCT l.lexeme FROM products p, unnest(p.search_words) AS l (lexeme, positions, weights)
                WHERE p.seq = $1 AND \(PostgreSQLSearchTerms.isWord("l.lexeme"))
                """
            try run(
                """
                WITH locked AS (
                    SELECT c.word FROM search_word_counts c WHERE c.word IN (\(gone)) ORDER BY c.word COLLATE "C" FOR UPDATE OF c
                ) UPDATE search_word_counts c SET products = c.products - 1 FROM locked l WHERE c.word = l.word
                """, [live])
            try run("DELETE FROM search_word_counts WHERE products = 0 AND word IN (\(gone))", [live])
        }
        let changed = try run(
            """
            UPDATE products SET archived = true, status = 'archived'
            WHERE handle = (SELECT handle FROM products WHERE sku = $1) AND status <> 'archived'
            """, [sku])
        if changed > 0 { return .archived }
        return try query("SELECT 1 FROM products WHERE sku = $1", [sku]) { _ in () }.isEmpty ? .unknown : .alreadyArchived
    }

    // MARK: - Orders

    /// `SELECT … FOR UPDATE`: a second cancel of the order waits here for the first to end, then
    /// reads the order as the first left it (READ COMMITTED re-reads a row it waited for).
    func lockOrder(id: String) throws -> Order? {
        try query("SELECT \(ShopRows.orderColumns) FROM orders WHERE order_id = $1 FOR UPDATE", [id], row: ShopRows.orderHeader)
            .first.map(withLines)?.order
    }

    func setSearchSynonymsJSON(_ json: String?) throws {
        guard let json else {
            try run("DELETE FROM search_synonyms", [])
            return
        }
        try run("INSERT INTO search_synonyms (id, synonyms) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET synonyms = excluded.synonyms", [json])
    }

    func markOrderCancelled(id: String, at: String, reason: String?) throws {
        try run(
            "UPDATE orders SET status = $2, cancelled_at = $3, cancel_reason = $4 WHERE order_id = $1",
            [id, Order.cancelledStatus, at, reason]
        )
    }

    func order(id: String) throws -> Order? {
        try query("SELECT \(ShopRows.orderColumns) FROM orders WHERE order_id = $1", [id], row: ShopRows.orderHeader)
            .first.map(withLines)?.order
    }

    func orders(cartId: String?, customerPrefix: String?, beforeSequence: Int64?, limit: Int) throws -> [StoredOrder] {
        let before = beforeSequence ?? Int64.max
        let headers = if let cartId {
            try query(
                "SELECT \(ShopRows.orderColumns) FROM orders WHERE cart_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3",
                [cartId, before, limit], row: ShopRows.orderHeader
            )
        } else if let customerPrefix {
            // One customer's: newest first, skipping the others' (no index on the customer yet).
            try query(
                "SELECT \(ShopRows.orderColumns) FROM orders WHERE left(cart_id, length($1)) = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3",
                [customerPrefix, before, limit], row: ShopRows.orderHeader
            )
        } else {
            try query(
                "SELECT \(ShopRows.orderColumns) FROM orders WHERE seq < $1 ORDER BY seq DESC LIMIT $2",
                [before, limit], row: ShopRows.orderHeader
            )
        }
        return try headers.map(withLines)
    }

    func orderReference(idempotencyKey: String) throws -> (orderId: String, cartId: String)? {
        try query("SELECT order_id, cart_id FROM orders WHERE idempotency_key = $1", [idempotencyKey]) {
            (orderId: $0.text(0), cartId: $0.text(1))
        }.first
    }

    // MARK: - Helpers

    private func checkInterruption() throws {
        if interruption?.isInterrupted == true { throw ShopError.interrupted }
    }

    /// Runs `sql` on the connection once `interruption` has been checked.
    func query<Row>(
        _ sql: String, _ arguments: [any PostgreSQLValue], prepared: Bool = true, row: (PostgreSQLRow) throws -> Row
    ) throws -> [Row] {
        try checkInterruption()
        return try connection.query(sql, arguments, prepared: prepared, row: row)
    }

    @discardableResult
    private func run(_ sql: String, _ arguments: [any PostgreSQLValue]) throws -> Int {
        try checkInterruption()
        return try connection.run(sql, arguments)
    }

    /// An order header row with its lines loaded.
    private func withLines(_ header: StoredOrder) throws -> StoredOrder {
        let lines = try query(
            "SELECT sku, quantity, unit_price_cents FROM order_lines WHERE order_seq = $1 ORDER BY line_no",
            [header.sequence], row: ShopRows.line
        )
        return ShopRows.withLines(header, lines)
    }
}
