// MARK: - PostgreSQLShopTransaction

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


    // MARK: - Products and stock

    func products(afterSku: String?, category: String?, limit: Int) throws -> [Product] {
        if let category {
            return try query(
                "SELECT \(ShopRows.productColumns) FROM products p WHERE p.category = $1 AND p.sku > $2 ORDER BY p.sku LIMIT $3",
                [category, afterSku ?? "", limit], row: ShopRows.product
            )
        }
        return try query(
            "SELECT \(ShopRows.productColumns) FROM products p WHERE p.sku > $1 ORDER BY p.sku LIMIT $2",
            [afterSku ?? "", limit], row: ShopRows.product
        )
    }

    func product(sku: String) throws -> Product? {
        try query("SELECT \(ShopRows.productColumns) FROM products p WHERE p.sku = $1", [sku], row: ShopRows.product).first
    }

    /// Every term must start a word (`\m`, case-insensitively) in name, description or category.
    /// Terms hold only letters and digits, so they are never regular-expression syntax.
    func searchProducts(terms: [String], limit: Int) throws -> [Product] {
        let clauses = terms.indices.map { index in
            "(p.name || ' ' || p.description || ' ' || p.category) ~* ('\\m' || $\(index + 1))"
        }
        let sql = "SELECT \(ShopRows.productColumns) FROM products p WHERE \(clauses.joined(separator: " AND ")) ORDER BY p.sku LIMIT $\(terms.count + 1)"
        let arguments: [any PostgreSQLValue] = terms.map { $0 as any PostgreSQLValue } + [limit]
        return try query(sql, arguments, row: ShopRows.product)
    }

    func available(sku: String) throws -> Int? {
        try query("SELECT available FROM stock WHERE sku = $1", [sku]) { $0.int(0) }.first
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

    /// `SELECT … FOR UPDATE`: the stock row stays locked until the transaction ends.
    func lockStock(sku: String) throws -> Int? {
        try query("SELECT available FROM stock WHERE sku = $1 FOR UPDATE", [sku]) { $0.int(0) }.first
    }

    /// One statement: the conditional UPDATE (a concurrent writer of the row makes it wait, then
    /// re-check) and, from the level it returns, the ledger row.
    func changeStock(sku: String, by delta: Int, cause: StockChangeCause) throws -> Int? {
        try query(
            """
            WITH changed AS (
                UPDATE stock SET available = available + $2 WHERE sku = $1 AND available + $2 >= 0 RETURNING available
            )
            INSERT INTO stock_ledger (at, sku, delta, available_after, reason, order_id, source, actor)
            SELECT $3, $1, $2, changed.available, $4, $5, $6, $7 FROM changed
            RETURNING available_after
            """,
            [sku, delta, cause.at, cause.reason.rawValue, cause.orderId, cause.source, cause.actor]
        ) { $0.int(0) }.first
    }

    func stockMovements(afterSequence: Int64, since: String?, limit: Int) throws -> [StockMovement] {
        try query(
            "SELECT \(ShopRows.movementColumns) FROM stock_ledger WHERE seq > $1 AND at >= $2 COLLATE \"C\" ORDER BY seq LIMIT $3",
            [afterSequence, since ?? "", limit], row: ShopRows.movement
        )
    }

    // MARK: - Orders

    /// `SELECT … FOR UPDATE`: a second cancel of the order waits here for the first to end, then
    /// reads the order as the first left it (READ COMMITTED re-reads a row it waited for).
    func lockOrder(id: String) throws -> Order? {
        try query("SELECT \(ShopRows.orderColumns) FROM orders WHERE order_id = $1 FOR UPDATE", [id], row: ShopRows.orderHeader)
            .first.map(withLines)?.order
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

    func orders(cartId: String?, beforeSequence: Int64?, limit: Int) throws -> [StoredOrder] {
        let before = beforeSequence ?? Int64.max
        let headers = if let cartId {
            try query(
                "SELECT \(ShopRows.orderColumns) FROM orders WHERE cart_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3",
                [cartId, before, limit], row: ShopRows.orderHeader
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

    private func query<Row>(_ sql: String, _ arguments: [any PostgreSQLValue], row: (PostgreSQLRow) throws -> Row) throws -> [Row] {
        try checkInterruption()
        return try connection.query(sql, arguments, row: row)
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
