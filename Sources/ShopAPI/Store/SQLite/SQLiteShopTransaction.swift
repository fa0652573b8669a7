/// The shop's primitive reads and writes as SQL on one connection, inside a transaction the
/// store opened. Used only on the thread holding the connection, only during the transaction.
///
/// Checks `interruption` before every statement (`sqlite3_interrupt` only stops a statement
/// that is running, so a cancel between statements would otherwise be missed).
struct SQLiteShopTransaction: ShopOrderTransaction {
    let connection: SQLiteConnection
    let searchMode: SQLiteSearchMode
    let interruption: (any ShopInterruption)?


    // MARK: - Products and stock

    /// The first variants of live products (`seq = product_seq`, `archived = 0`): by category
    /// through the partial index that holds exactly those, else along `seq`'s index, skipping
    /// the other rows (an index of their own would cost every import a B-tree insert per row).
    /// Each with its level and one probe of `products_by_handle` for other variants.
    func products(afterSeq: Int64?, category: String?, limit: Int) throws -> [(seq: Int64, listed: ListedProduct)] {
        let row = { (row: SQLiteStatement) in (seq: row.int64(0), listed: ShopRows.listedProduct(ShopRows.Offset(row, by: 1))) }
        if let category {
            return try query(
                """
                SELECT p.seq, \(Self.listedColumns) FROM products p INDEXED BY products_live_by_category LEFT JOIN stock s ON s.sku = p.sku
                WHERE p.archived = 0 AND p.seq = p.product_seq AND p.category = ?1 AND p.seq > ?2 ORDER BY p.seq LIMIT ?3
                """,
                [category, afterSeq ?? .min, limit], row: row
            )
        }
        return try query(
            """
            SELECT p.seq, \(Self.listedColumns) FROM products p INDEXED BY products_by_seq LEFT JOIN stock s ON s.sku = p.sku
            WHERE p.archived = 0 AND p.seq = p.product_seq AND p.seq > ?1 ORDER BY p.seq LIMIT ?2
            """,
            [afterSeq ?? .min, limit], row: row
        )
    }

    func productCount(category: String?) throws -> Int {
        if let category {
            return try query("""
                SELECT count(*) FROM products INDEXED BY products_live_by_category
                WHERE archived = 0 AND seq = product_seq AND category = ?1
                """, [category]) { $0.int(0) }.first ?? 0
        }
        return try query("SELECT count(*) FROM products WHERE archived = 0 AND seq = product_seq", []) {
            $0.int(0)
        }.first ?? 0
    }

    func product(sku: String) throws -> Product? {
        try queryFirst(.productBySku, sql: "SELECT \(ShopRows.productColumns) FROM products p WHERE p.sku = ?1 AND p.archived = 0", [sku], row: ShopRows.product)
    }

    /// The columns `ShopRows.listedProduct` reads, from `products p` left joined with `stock s`.
    static let listedColumns = "\(ShopRows.productColumns), coalesce(s.available, 0), \(SQLiteProductHandle.hasOtherVariants(first: "p"))"

    /// One statement through `products_by_handle` and the primary key (`SQLiteProductHandle`),
    /// the handles bound as one JSON array.
    func variantChoices(handles: [String]) throws -> [String: [VariantChoice]] {
        guard !handles.isEmpty else { return [:] }
        let rows = try query(
            """
            SELECT \(ShopRows.productColumns), coalesce(s.available, 0) FROM products p LEFT JOIN stock s ON s.sku = p.sku
            WHERE p.sku IN \(SQLiteProductHandle.skus(ofHandlesIn: "(SELECT value FROM json_each(?1))")) AND p.archived = 0
            ORDER BY p.handle, p.seq
            """,
            [ShopRows.jsonArray(handles)], row: ShopRows.variantChoice
        )
        var byHandle: [String: [VariantChoice]] = [:]
        for (handle, choice) in rows { byHandle[handle, default: []].append(choice) }
        return byHandle
    }

    func productVariants(handle: String) throws -> [(product: Product, available: Int)] {
        try query(
            """
            SELECT \(ShopRows.productColumns), coalesce(s.available, 0) FROM products p LEFT JOIN stock s ON s.sku = p.sku
            WHERE p.sku IN \(SQLiteProductHandle.skus(ofHandlesIn: "(?1)")) AND p.archived = 0 ORDER BY p.seq
            """,
            [handle]
        ) { row in (product: ShopRows.product(row), available: row.int(ShopRows.productColumnCount)) }
    }

    func available(sku: String) throws -> Int? {
        try queryFirst(
            .stockBySku, sql: "SELECT s.available FROM stock s JOIN products p ON p.sku = s.sku WHERE s.sku = ?1 AND p.archived = 0", [sku]
        ) { $0.int(0) }
    }

    func catalogCurrency() throws -> String? {
        try query("SELECT currency FROM products LIMIT 1", []) { $0.text(0) }.first
    }

    func searchSynonymsJSON() throws -> String? {
        try query("SELECT synonyms FROM search_synonyms WHERE id = 1", []) { $0.text(0) }.first
    }

    // MARK: - Carts

    func cartLines(cartId: String) throws -> [CartLine] {
        try query("SELECT sku, quantity, unit_price_cents FROM cart_lines WHERE cart_id = ?1 ORDER BY id", [cartId], row: ShopRows.line)
    }

    /// Nothing to do: the store's writes run one at a time (`BEGIN IMMEDIATE` holds the file's
    /// write lock, across processes too).
    func lockCart(cartId: String) throws {}

    func setCartLine(cartId: String, line: CartLine) throws {
        try run(
            """
            INSERT INTO cart_lines (cart_id, sku, quantity, unit_price_cents) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (cart_id, sku) DO UPDATE SET quantity = excluded.quantity, unit_price_cents = excluded.unit_price_cents
            """,
            [cartId, line.sku, line.quantity, line.unitPriceCents]
        )
    }

    func removeCartLine(cartId: String, sku: String) throws {
        try run("DELETE FROM cart_lines WHERE cart_id = ?1 AND sku = ?2", [cartId, sku])
    }

    func clearCart(cartId: String) throws {
        try run("DELETE FROM cart_lines WHERE cart_id = ?1", [cartId])
    }

    // MARK: - Stock and its ledger

    /// A plain read, as `available` (nil for an archived product too): inside `BEGIN IMMEDIATE`
    /// no other writer (thread or process) can interleave.
    func lockStock(sku: String) throws -> Int? {
        try available(sku: sku)
    }

    /// One conditional UPDATE (inside `BEGIN IMMEDIATE` no other writer, thread or process, can
    /// interleave; the condition keeps stock from going negative and, when asked, archived
    /// products out), then the ledger row with the level it returned.
    func changeStock(sku: String, by delta: Int, onlyIfListed: Bool, cause: StockChangeCause) throws -> Int? {
        let changed = try query(
            """
            UPDATE stock SET available = available + ?2
            WHERE sku = ?1 AND available + ?2 >= 0 AND (?3 = 0 OR (SELECT archived FROM products WHERE sku = ?1) = 0)
            RETURNING available
            """,
            [sku, delta, onlyIfListed ? 1 : 0]
        ) { $0.int(0) }
        guard let level = changed.first else { return nil }
        try run(
            """
            INSERT INTO stock_ledger (at, sku, delta, available_after, reason, order_id, source, actor)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """,
            [cause.at, sku, delta, level, cause.reason.rawValue, cause.orderId, cause.source, cause.actor]
        )
        return level
    }

    func stockMovements(afterSequence: Int64, since: String?, limit: Int) throws -> [StockMovement] {
        try query(
            "SELECT \(ShopRows.movementColumns) FROM stock_ledger WHERE seq > ?1 AND at >= ?2 ORDER BY seq LIMIT ?3",
            [afterSequence, since ?? "", limit], row: ShopRows.movement
        )
    }

    // MARK: - Products

    /// As `import --replace` archives (`SQLiteCatalogImport`): the status of every variant of
    /// the product, and the product out of the search index.
    func archiveProduct(sku: String) throws -> ProductArchiving {
        let found = try query("SELECT handle, product_seq, status FROM products WHERE sku = ?1", [sku]) {
            (handle: $0.text(0), productSeq: $0.int64(1), status: $0.text(2))
        }
        guard let product = found.first else { return .unknown }
        guard product.status != ProductStatus.archived.rawValue else { return .alreadyArchived }
        try run("UPDATE products SET archived = 1, status = 'archived' WHERE sku IN \(SQLiteProductHandle.skus(ofHandlesIn: "(?1)"))",
                [product.handle])
        try checkInterruption()
        let index = SQLiteSearchIndexWriter(connection: connection, searchMode: searchMode)
        try index.unindex(productSeq: product.productSeq)
        try index.flush()
        return .archived
    }

    // MARK: - Orders

    func insertOrder(_ order: Order, idempotencyKey: String) throws {
        try run(
            """
            INSERT INTO orders (order_id, cart_id, idempotency_key, total_cents, currency, status, created_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            """,
            [order.orderId, order.cartId, idempotencyKey, order.totalCents, order.currency, order.status, order.createdAt]
        )
        let sequence = connection.lastInsertRowID
        for (number, line) in order.lines.enumerated() {
            try run(
                "INSERT INTO order_lines (order_seq, line_no, sku, quantity, unit_price_cents) VALUES (?1, ?2, ?3, ?4, ?5)",
                [sequence, number + 1, line.sku, line.quantity, line.unitPriceCents]
            )
        }
    }

    /// A plain read, as `lockStock`.
    func lockOrder(id: String) throws -> Order? {
        try order(id: id)
    }

    func setSearchSynonymsJSON(_ json: String?) throws {
        guard let json else {
            try run("DELETE FROM search_synonyms", [])
            return
        }
        try run("INSERT INTO search_synonyms (id, synonyms) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET synonyms = excluded.synonyms", [json])
    }

    func markOrderCancelled(id: String, at: String, reason: String?) throws {
        try run(
            "UPDATE orders SET status = ?2, cancelled_at = ?3, cancel_reason = ?4 WHERE order_id = ?1",
            [id, Order.cancelledStatus, at, reason]
        )
    }

    func order(id: String) throws -> Order? {
        try query("SELECT \(ShopRows.orderColumns) FROM orders WHERE order_id = ?1", [id], row: ShopRows.orderHeader)
            .first.map(withLines)?.order
    }

    func orders(cartId: String?, customerPrefix: String?, beforeSequence: Int64?, limit: Int) throws -> [StoredOrder] {
        let before = beforeSequence ?? Int64.max
        let headers = if let cartId {
            try query(
                "SELECT \(ShopRows.orderColumns) FROM orders WHERE cart_id = ?1 AND seq < ?2 ORDER BY seq DESC LIMIT ?3",
                [cartId, before, limit], row: ShopRows.orderHeader
            )
        } else if let customerPrefix {
            // One customer's: newest first, skipping the others' (no index on the customer yet).
            try query(
                "SELECT \(ShopRows.orderColumns) FROM orders WHERE substr(cart_id, 1, length(?1)) = ?1 AND seq < ?2 ORDER BY seq DESC LIMIT ?3",
                [customerPrefix, before, limit], row: ShopRows.orderHeader
            )
        } else {
            try query(
                "SELECT \(ShopRows.orderColumns) FROM orders WHERE seq < ?1 ORDER BY seq DESC LIMIT ?2",
                [before, limit], row: ShopRows.orderHeader
            )
        }
        return try headers.map(withLines)
    }

    func orderReference(idempotencyKey: String) throws -> (orderId: String, cartId: String)? {
        try query("SELECT order_id, cart_id FROM orders WHERE idempotency_key = ?1", [idempotencyKey]) {
            (orderId: $0.text(0), cartId: $0.text(1))
        }.first
    }

    // MARK: - Helpers

    func checkInterruption() throws {
        if interruption?.isInterrupted == true { throw ShopError.interrupted }
    }

    func query<Row>(_ sql: String, _ arguments: [any SQLiteBindable], row: (SQLiteStatement) throws -> Row) throws -> [Row] {
        try checkInterruption()
        return try connection.query(sql, arguments, row: row)
    }

    /// `query` for a lookup by a unique key (the primary key): the first row, or nil.
    private func queryFirst<Row>(_ lookup: SQLiteConnection.KeyLookup, sql: @autoclosure () -> String, _ arguments: [any SQLiteBindable], row: (SQLiteStatement) throws -> Row) throws -> Row? {
        try checkInterruption()
        return try connection.queryFirst(lookup, sql: sql(), arguments, row: row)
    }

    @discardableResult
    private func run(_ sql: String, _ arguments: [any SQLiteBindable]) throws -> Int {
        try checkInterruption()
        return try connection.run(sql, arguments: arguments)
    }

    /// An order header row with its lines loaded.
    private func withLines(_ header: StoredOrder) throws -> StoredOrder {
        let lines = try query(
            "SELECT sku, quantity, unit_price_cents FROM order_lines WHERE order_seq = ?1 ORDER BY line_no",
            [header.sequence], row: ShopRows.line
        )
        return ShopRows.withLines(header, lines)
    }
}
