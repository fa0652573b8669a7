import Dispatch

// MARK: - Orders

// Every order method takes the session's `customer` (nil: a session without one, which serves the
// whole shop). In a customer's session an order of anyone else (another customer's, or one placed
// without a customer) is exactly as unknown as an order that does not exist; orders placed record
// the customer (`Order.customer`), and ledger rows the session writes name it as their actor.

extension ShopService {
    /// The order with `id`; `.notFound(entity: "order")` if there is none, or (with `customer`)
    /// if it is not that customer's.
    public func order(id: String, customer: String? = nil, interruption: (any ShopInterruption)?) throws -> Order {
        let found = try store.read(interruption: interruption) { try $0.order(id: id) }?.presented()
        guard let found, Self.isVisible(found, to: customer) else { throw ShopError.notFound(entity: "order", id: id) }
        return found
    }

    /// Orders newest first, only `cartId`'s when given, only `customer`'s when given (the
    /// session's customer, or the one an operator asks for): `cartId` is then that customer's
    /// cart. Cursors are stable: orders placed after a page was read never shift the following
    /// pages. Paging rules as in `listCatalog`.
    public func listOrders(cartId: String?, customer: String? = nil, cursor: String?, limit: Int,
                           interruption: (any ShopInterruption)?) throws -> OrderPage {
        var beforeSequence: Int64?
        if let cursor, !cursor.isEmpty {
            beforeSequence = try PageCursor.ordersPosition(cursor)
        }
        let pageSize = Self.pageSize(limit)
        let found = try store.read(interruption: interruption) { transaction in
            try transaction.orders(cartId: cartId.map { CustomerKey.stored($0, customer: customer) },
                                   customerPrefix: cartId == nil ? customer.map(CustomerKey.prefix) : nil,
                                   beforeSequence: beforeSequence, limit: pageSize + 1)
        }
        let page = found.prefix(pageSize)
        let nextCursor = found.count > pageSize ? page.last.map { PageCursor.orders(beforeSequence: $0.sequence) } : nil
        return OrderPage(items: page.map { $0.order.presented() }, nextCursor: nextCursor)
    }

    /// Whether a session of `customer` may see `order` (presented): every order without one.
    static func isVisible(_ order: Order, to customer: String?) -> Bool {
        customer == nil || order.customer == customer
    }

    /// What the ledger records as the actor of a session's write: `customer:ID` in a customer's
    /// session (the client's `_meta.actor` is then not recorded: it cannot speak for another),
    /// else the client's `actor`.
    static func ledgerActor(customer: String?, actor: String?) -> String? {
        customer.map { "customer:\($0)" } ?? actor
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
    /// Never oversells, also with several processes on one database file. Each line's stock
    /// change appends a `sale` ledger row recording `actor` (`ledgerActor`). With `customer`, the
    /// cart is that customer's, the order records the customer, and idempotency keys are the
    /// customer's own: another customer's key is a new key, never that customer's order.
    /// Calls `completion` exactly once, on `callbackQueue`, after the order is durable.
    public func placeOrder(
        cartId: String,
        idempotencyKey: String,
        customer: String? = nil,
        actor: String? = nil,
        interruption: (any ShopInterruption)?,
        callbackQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Order, ShopError>) -> Void
    ) {
        // The currency when known already; else the store reads it inside the write (a write never
        // waits on the database before it is queued).
        let placement = OrderPlacement(
            cartId: CustomerKey.stored(cartId, customer: customer), idempotencyKey: CustomerKey.stored(idempotencyKey, customer: customer),
            actor: Self.ledgerActor(customer: customer, actor: actor), makeOrderId: makeOrderId, now: now, currency: knownCurrencyCode)
        store.placeOrder(placement, interruption: interruption, callbackQueue: callbackQueue) { result in
            completion(result.map { $0.presented() }.mapError { error in
                // The store names the stored keys; the client hears its own.
                switch error {
                case .cartEmpty: .cartEmpty(cartId: cartId)
                case .cartTotalOutOfRange: .cartTotalOutOfRange(cartId: cartId)
                case .idempotencyConflict: .idempotencyConflict(key: idempotencyKey, cartId: cartId)
                default: error
                }
            })
        }
    }

    /// Cancels the order and puts every line's quantity back in stock, atomically, and delivers
    /// the order with status `"cancelled"`, `cancelledAt` and `reason` as `cancelReason`.
    ///
    /// Rules (`OrderCancellation.run(in:)`):
    /// 1. An unknown order fails with `.notFound(entity: "order")`.
    /// 2. Cancelling a cancelled order delivers it as it is and restocks nothing, however many
    ///    cancels race, in however many processes.
    /// 3. Each restocked line appends a `cancellation` ledger row recording `actor`.
    ///
    /// Calls `completion` exactly once, on `callbackQueue`, after the change is durable.
    /// With `customer`, an order that is not that customer's fails as an unknown one, changing
    /// nothing.
    public func cancelOrder(
        id: String,
        reason: String?,
        customer: String? = nil,
        actor: String? = nil,
        interruption: (any ShopInterruption)?,
        callbackQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Order, ShopError>) -> Void
    ) {
        let cancellation = OrderCancellation(orderId: id, reason: reason, customer: customer,
                                             actor: Self.ledgerActor(customer: customer, actor: actor), now: now)
        store.write(interruption: interruption, callbackQueue: callbackQueue, { try cancellation.run(in: $0).presented() }, completion: completion)
    }
}
