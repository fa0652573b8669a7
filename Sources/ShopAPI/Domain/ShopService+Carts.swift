import Dispatch

// MARK: - Carts

extension ShopService {
    // Every cart method takes the session's `customer` (nil: a session without one): the cart
    // `cartId` names is that customer's own, kept apart from every other customer's cart of the
    // same id (`CustomerKey`); the cart delivered carries the client's `cartId`.

    /// The cart's lines and total. An id never written to is an empty cart, not an error.
    public func cart(id: String, customer: String? = nil, interruption: (any ShopInterruption)?) throws -> Cart {
        let key = CustomerKey.stored(id, customer: customer)
        return try store.read(interruption: interruption) { transaction in
            try Cart(cartId: id, lines: try transaction.cartLines(cartId: key), currency: try self.currency(in: transaction))
        }
    }

    /// Adds `quantity` units of `sku` to the cart (creating the cart or line as needed) at the
    /// product's current price, and delivers the resulting cart. Does not reserve stock.
    ///
    /// Fails with `.invalidQuantity` if `quantity` or the resulting line is outside
    /// `1...ShopLimits.maxLineQuantity`, `.notFound(entity: "product")` for an unknown or
    /// archived SKU, `.cartFull` when `sku` would be a new line in a cart that already holds
    /// `ShopLimits.maxCartLines` lines, `.cartTotalOutOfRange` when the resulting cart's total
    /// cannot be represented (an old cart; see `ShopLimits.maxCartLines`). Nothing changes on a
    /// failure.
    /// Calls `completion` exactly once, on `callbackQueue`.
    public func addToCart(
        cartId: String,
        sku: String,
        quantity: Int,
        customer: String? = nil,
        interruption: (any ShopInterruption)?,
        callbackQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Cart, ShopError>) -> Void
    ) {
        let maxQuantity = ShopLimits.maxLineQuantity
        guard (1...maxQuantity).contains(quantity) else {
            let error = ShopError.invalidQuantity(sku: sku, quantity: quantity, max: maxQuantity)
            return Self.deliver(.failure(error), on: callbackQueue, to: completion)
        }
        let key = CustomerKey.stored(cartId, customer: customer)
        store.write(interruption: interruption, callbackQueue: callbackQueue, { transaction in
            try transaction.lockCart(cartId: key)
            guard let product = try transaction.product(sku: sku) else {
                throw ShopError.notFound(entity: "product", id: sku)
            }
            let lines = try transaction.cartLines(cartId: key)
            let existing = lines.first { $0.sku == sku }
            guard existing != nil || lines.count < ShopLimits.maxCartLines else {
                throw ShopError.cartFull(cartId: cartId, lines: lines.count, max: ShopLimits.maxCartLines)
            }
            // `quantity` is at most maxQuantity, and so is every line this rule wrote; the sum is
            // still checked, since the stored quantity is only what the store holds.
            let (newQuantity, overflow) = (existing?.quantity ?? 0).addingReportingOverflow(quantity)
            guard !overflow, newQuantity <= maxQuantity else {
                throw ShopError.invalidQuantity(sku: sku, quantity: overflow ? Int.max : newQuantity, max: maxQuantity)
            }
            let line = CartLine(sku: sku, quantity: newQuantity, unitPriceCents: product.priceCents)
            try transaction.setCartLine(cartId: key, line: line)
            // A total out of range throws, and the write (the line just set) is undone.
            return try Cart(cartId: cartId, lines: try transaction.cartLines(cartId: key), currency: product.currency)
        }, completion: completion)
    }

    /// Removes the cart's line for `sku` entirely and delivers the resulting cart. Removing an
    /// absent line (or from an unknown cart) is not an error.
    /// Calls `completion` exactly once, on `callbackQueue`.
    public func removeFromCart(
        cartId: String,
        sku: String,
        customer: String? = nil,
        interruption: (any ShopInterruption)?,
        callbackQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Cart, ShopError>) -> Void
    ) {
        let key = CustomerKey.stored(cartId, customer: customer)
        store.write(interruption: interruption, callbackQueue: callbackQueue, { transaction in
            try transaction.lockCart(cartId: key)
            try transaction.removeCartLine(cartId: key, sku: sku)
            return try Cart(cartId: cartId, lines: try transaction.cartLines(cartId: key), currency: try self.currency(in: transaction))
        }, completion: completion)
    }

    /// Removes every line and delivers the (empty) cart.
    /// Calls `completion` exactly once, on `callbackQueue`.
    public func clearCart(
        cartId: String,
        customer: String? = nil,
        interruption: (any ShopInterruption)?,
        callbackQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Cart, ShopError>) -> Void
    ) {
        let key = CustomerKey.stored(cartId, customer: customer)
        store.write(interruption: interruption, callbackQueue: callbackQueue, { transaction in
            try transaction.lockCart(cartId: key)
            try transaction.clearCart(cartId: key)
            return try Cart(cartId: cartId, lines: [], currency: try self.currency(in: transaction))
        }, completion: completion)
    }
}
