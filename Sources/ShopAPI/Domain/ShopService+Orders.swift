import Dispatch

// MARK: - Orders

extension ShopService {
    /// The order with `id`; `.notFound(entity: "order")` if there is none.
    public func order(id: String, interruption: (any ShopInterruption)?) throws -> Order {
        let found = try store.read(interruption: interruption) { try $0.order(id: id) }
        guard let found else { throw ShopError.notFound(entity: "order", id: id) }
        return found
    }

    /// Orders newest first, only `cartId`'s when given. Cursors are stable: orders placed after a
    /// page was read never shift the following pages. Paging rules as in `listCatalog`.
    public func listOrders(cartId: String?, cursor: String?, limit: Int, interruption: (any ShopInterruption)?) throws -> OrderPage {
        var beforeSequence: Int64?
        if let cursor, !cursor.isEmpty {
            beforeSequence = try PageCursor.ordersPosition(cursor)
        }
        let pageSize = Self.pageSize(limit)
        let found = try store.read(interruption: interruption) { transaction in
            try transaction.orders(cartId: cartId, beforeSequence: beforeSequence, limit: pageSize + 1)
        }
        let page = found.prefix(pageSize)
        let nextCursor = found.count > pageSize ? page.last.map { PageCursor.orders(beforeSequence: $0.sequence) } : nil
        return OrderPage(items: page.map(\.order), nextCursor: nextCursor)
    }

    /// Turns the cart into an order, atomically: takes stock for every line, stores the order
    /// under `idempotencyKey`, and empties the cart. Delivers the order.
    ///
    /// Rules, in order:
    /// 1. A key that already placed an order for this cart delivers that same order again,
    ///    taking no stock (also after a restart); for another cart it fails with
    ///    `.idempotencyConflict`.
    /// 2. An empty cart fails with `.cartEmpty`.
    /// 3. A line with too little stock fails with `.outOfStock` (the first such line, with the
    ///    level seen) and changes nothing.
    ///
    /// Never oversells, also with several processes on one database file. Calls `completion`
    /// exactly once, on `callbackQueue`, after the order is durable.
    public func placeOrder(
        cartId: String,
        idempotencyKey: String,
        interruption: (any ShopInterruption)?,
        callbackQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Order, ShopError>) -> Void
    ) {
        let now = self.now
        let makeOrderId = self.makeOrderId
        store.write(interruption: interruption, callbackQueue: callbackQueue, { transaction in
            /// The order this key already placed, if any (rule 1).
            func alreadyPlaced() throws -> Order? {
                guard let placed = try transaction.orderReference(idempotencyKey: idempotencyKey) else { return nil }
                guard placed.cartId == cartId else {
                    throw ShopError.idempotencyConflict(key: idempotencyKey, cartId: cartId)
                }
                guard let order = try transaction.order(id: placed.orderId) else {
                    throw ShopError.storage("Order \(placed.orderId) of idempotency key is missing")
                }
                return order
            }
            if let order = try alreadyPlaced() { return order }
            let lines = try transaction.cartLines(cartId: cartId)
            guard !lines.isEmpty else {
                // Another process may have placed this very order (and emptied the cart) since the
                // first look: on a store whose transactions see each commit as it lands
                // (PostgreSQL, read committed) the key is visible now. Then it is a retry.
                if let order = try alreadyPlaced() { return order }
                throw ShopError.cartEmpty(cartId: cartId)
            }
            for line in lines where try !transaction.takeStock(sku: line.sku, quantity: line.quantity) {
                let available = try transaction.available(sku: line.sku) ?? 0
                throw ShopError.outOfStock(sku: line.sku, requested: line.quantity, available: available)
            }
            let order = Order(
                orderId: makeOrderId(),
                cartId: cartId,
                lines: lines,
                totalCents: lines.totalCents,
                currency: ShopCurrency.code,
                status: Order.placedStatus,
                createdAt: OrderStamp.timestamp(now())
            )
            try transaction.insertOrder(order, idempotencyKey: idempotencyKey)
            try transaction.clearCart(cartId: cartId)
            return order
        }, completion: completion)
    }
}
