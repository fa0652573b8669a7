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
    /// Rules (`OrderPlacement.run(in:)`), in order:
    /// 1. A key that already placed an order for this cart delivers that same order again,
    ///    taking no stock (also after a restart); for another cart it fails with
    ///    `.idempotencyConflict`.
    /// 2. An empty cart fails with `.cartEmpty`.
    /// 3. A line whose product was archived fails with `.notFound(entity: "product")`, a line
    ///    with too little stock with `.outOfStock` (with the level seen): the first such line in
    ///    cart order decides, and nothing changes.
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
        // The currency when known already; else the store reads it inside the write (a write never
        // waits on the database before it is queued).
        let placement = OrderPlacement(
            cartId: cartId, idempotencyKey: idempotencyKey, makeOrderId: makeOrderId, now: now, currency: knownCurrencyCode)
        store.placeOrder(placement, interruption: interruption, callbackQueue: callbackQueue, completion: completion)
    }
}
