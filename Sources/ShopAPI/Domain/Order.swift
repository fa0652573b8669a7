/// A placed order. Immutable value; `Sendable`.
///
/// A stored order changes once at most: `orders.cancel` turns it from `"placed"` to
/// `"cancelled"`, setting `cancelledAt` (and `cancelReason` when the cancel gave one). Its lines
/// and total never change.
public struct Order: Codable, Sendable, Equatable {
    /// `ord_` followed by 16 lowercase hex digits.
    public let orderId: String
    public let cartId: String
    /// The cart's lines at the moment the order was placed.
    public let lines: [CartLine]
    public let totalCents: Int
    /// The store's currency (`ShopCurrency`).
    public let currency: String
    /// `"placed"` (`Order.placedStatus`) or `"cancelled"` (`Order.cancelledStatus`).
    public let status: String
    /// ISO 8601 UTC with milliseconds, e.g. `2026-11-23T10:00:00.123Z`.
    public let createdAt: String
    /// When the order was cancelled (same format as `createdAt`); nil (omitted from JSON) while placed.
    public let cancelledAt: String?
    /// The reason the cancel gave, if any; nil (omitted from JSON) otherwise.
    public let cancelReason: String?
    /// The customer whose session placed it (`--customer`); nil (omitted from JSON) for an order
    /// placed without one, which includes every order placed before customers existed.
    public let customer: String?

    public init(
        orderId: String, cartId: String, lines: [CartLine], totalCents: Int, currency: String, status: String, createdAt: String,
        cancelledAt: String? = nil, cancelReason: String? = nil, customer: String? = nil
    ) {
        self.orderId = orderId
        self.cartId = cartId
        self.lines = lines
        self.totalCents = totalCents
        self.currency = currency
        self.status = status
        self.createdAt = createdAt
        self.cancelledAt = cancelledAt
        self.cancelReason = cancelReason
        self.customer = customer
    }
}

// MARK: - Status

extension Order {
    /// The status of an order when it is placed.
    public static let placedStatus = "placed"
    /// The status of an order once `orders.cancel` cancelled it.
    public static let cancelledStatus = "cancelled"

    /// Whether the order has been cancelled (its stock is back).
    public var isCancelled: Bool { status == Self.cancelledStatus }

    /// This order, cancelled at `time` for `reason`: the same lines and total.
    func cancelled(at time: String, reason: String?) -> Order {
        Order(orderId: orderId, cartId: cartId, lines: lines, totalCents: totalCents, currency: currency,
              status: Self.cancelledStatus, createdAt: createdAt, cancelledAt: time, cancelReason: reason, customer: customer)
    }

    /// This order as a client sees it: the store keeps a customer's order under its stored cart
    /// key (`CustomerKey`); this has the client's cart id and the customer apart.
    func presented() -> Order {
        let (customer, cartId) = CustomerKey.split(cartId)
        return Order(orderId: orderId, cartId: cartId, lines: lines, totalCents: totalCents, currency: currency, status: status,
                     createdAt: createdAt, cancelledAt: cancelledAt, cancelReason: cancelReason, customer: customer)
    }
}
