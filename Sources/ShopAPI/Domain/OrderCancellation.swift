import FoundationEssentials

/// One `orders.cancel` call as the store receives it, and the rules that cancel an order, written
/// once over the primitive reads and writes, which every store runs in one write transaction.
///
/// Immutable; `Sendable`.
struct OrderCancellation: Sendable {
    let orderId: String
    /// Why, as the caller put it; kept on the order (`cancelReason`).
    let reason: String?
    /// The session's customer: an order not theirs is unknown to it (nil: every order is known).
    let customer: String?
    /// Recorded on the ledger rows of the restocked lines (`params._meta.actor`).
    let actor: String?
    /// `cancelled_at` of an order cancelled now.
    let now: @Sendable () -> Date

    // MARK: - Rules

    /// Rules, in order:
    /// 1. An unknown order fails with `.notFound(entity: "order")`, and so does, with `customer`,
    ///    an order that is not that customer's.
    /// 2. An order already cancelled is delivered as it is: nothing is restocked again. Its row is
    ///    locked first (`lockOrder`), so of two cancels racing, in any processes, the second waits
    ///    for the first and then finds it cancelled.
    /// 3. Otherwise every line's quantity goes back to stock (each with its `cancellation` ledger
    ///    row; also a product archived since, whose level is then right when it is listed again),
    ///    in `StockLockOrder` (the order every stock writer keeps), and the order is marked
    ///    cancelled, all in the caller's transaction.
    func run(in transaction: any ShopWriteTransaction) throws -> Order {
        guard let order = try transaction.lockOrder(id: orderId), ShopService.isVisible(order.presented(), to: customer) else {
            throw ShopError.notFound(entity: "order", id: orderId)
        }
        if order.isCancelled { return order }
        let cancelledAt = OrderStamp.timestamp(now())
        let restock = StockChangeCause.order(.cancellation, orderId: orderId, actor: actor, at: cancelledAt)
        for line in StockLockOrder.sorted(order.lines) {
            guard try transaction.changeStock(sku: line.sku, by: line.quantity, onlyIfListed: false, cause: restock) != nil else {
                throw ShopError.storage("order \(orderId) holds \(line.sku), which has no stock row")
            }
        }
        try transaction.markOrderCancelled(id: orderId, at: cancelledAt, reason: reason)
        return order.cancelled(at: cancelledAt, reason: reason)
    }
}
