import FoundationEssentials

/// One `orders.place` call as the store receives it, and the rules that turn a cart into an
/// order, written once over the primitive reads and writes (`run(in:)`), which a store placing
/// orders statement by statement runs (SQLite). A store that runs the same rules closer to its
/// data (PostgreSQL: one server-side function, see `PostgreSQLOrderFunction`) must keep them
/// exactly.
///
/// Immutable; `Sendable`.
struct OrderPlacement: Sendable {
    let cartId: String
    let idempotencyKey: String
    /// Recorded on the order's ledger rows (`params._meta.actor`).
    let actor: String?
    /// Called once per attempt: a new id for the order if one is placed.
    let makeOrderId: @Sendable () -> String
    /// `created_at` of an order placed now.
    let now: @Sendable () -> Date
    /// The store's currency, the order's; nil when the service has not read it yet (the rules
    /// then read it in the order's own transaction).
    let currency: String?

    // MARK: - Rules

    /// Rules, in order:
    /// 1. A key that already placed an order for this cart delivers that same order again,
    ///    taking no stock (also after a restart); for another cart it fails with
    ///    `.idempotencyConflict`.
    /// 2. An empty cart fails with `.cartEmpty`, one whose total cannot be represented (an old
    ///    cart, see `ShopLimits.maxCartLines`) with `.cartTotalOutOfRange`.
    /// 3. A line whose product is no longer in the catalog (archived) fails with
    ///    `.notFound(entity: "product")`, and a line with too little stock with `.outOfStock`
    ///    (with the level seen): the first such line in cart order decides, and nothing changes
    ///    (the caller's transaction is undone).
    /// Otherwise takes stock for every line (each with its `sale` ledger row), stores the order
    /// under the key, empties the cart.
    func run(in transaction: any ShopOrderTransaction) throws -> Order {
        if let order = try alreadyPlaced(in: transaction) { return order }
        let lines = try transaction.cartLines(cartId: cartId)
        guard !lines.isEmpty else {
            // Another process may have placed this very order (and emptied the cart) since the
            // first look: on a store whose transactions see each commit as it lands
            // (PostgreSQL, read committed) the key is visible now. Then it is a retry.
            if let order = try alreadyPlaced(in: transaction) { return order }
            throw ShopError.cartEmpty(cartId: cartId)
        }
        guard let totalCents = lines.checkedTotalCents else { throw ShopError.cartTotalOutOfRange(cartId: cartId) }
        let orderId = makeOrderId()
        let createdAt = OrderStamp.timestamp(now())
        let sale = StockChangeCause.order(.sale, orderId: orderId, actor: actor, at: createdAt)
        for line in lines where try transaction.changeStock(sku: line.sku, by: -line.quantity, onlyIfListed: true, cause: sale) == nil {
            guard let available = try transaction.available(sku: line.sku) else {
                throw ShopError.notFound(entity: "product", id: line.sku)
            }
            throw ShopError.outOfStock(sku: line.sku, requested: line.quantity, available: available)
        }
        let order = Order(
            orderId: orderId,
            cartId: cartId,
            lines: lines,
            totalCents: totalCents,
            currency: try currency ?? transaction.catalogCurrency() ?? ShopCurrency.defaultCode,
            status: Order.placedStatus,
            createdAt: createdAt
        )
        try transaction.insertOrder(order, idempotencyKey: idempotencyKey)
        try transaction.clearCart(cartId: cartId)
        return order
    }

    /// The order this key already placed, if any (rule 1).
    private func alreadyPlaced(in transaction: any ShopReadTransaction) throws -> Order? {
        guard let placed = try transaction.orderReference(idempotencyKey: idempotencyKey) else { return nil }
        guard placed.cartId == cartId else {
            throw ShopError.idempotencyConflict(key: idempotencyKey, cartId: cartId)
        }
        guard let order = try transaction.order(id: placed.orderId) else {
            throw ShopError.storage("Order \(placed.orderId) of idempotency key is missing")
        }
        return order
    }
}
