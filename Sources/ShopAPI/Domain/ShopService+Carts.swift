import Dispatch

// MARK: - Carts

extension ShopService {
    /// The cart's lines and total. An id never written to is an empty cart, not an error.
    public func cart(id: String, interruption: (any ShopInterruption)?) throws -> Cart {
        try store.read(interruption: interruption) { transaction in
            try Cart(cartId: id, lines: try transaction.cartLines(cartId: id), currency: try self.currency(in: transaction))
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
        interruption: (any ShopInterruption)?,
        callbackQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Cart, ShopError>) -> Void
    ) {
        let maxQuantity = ShopLimits.maxLineQuantity
        guard (1...maxQuantity).contains(quantity) else {
            let error = ShopError.invalidQuantity(sku: sku, quantity: quantity, max: maxQuantity)
            return Self.deliver(.failure(error), on: callbackQueue, to: completion)
        }
        store.write(interruption: interruption, callbackQueue: callbackQueue, { transaction in
            try transaction.lockCart(cartId: cartId)
            guard let product = try transaction.product(sku: sku) else {
                throw ShopError.notFound(entity: "product", id: sku)
            }
            let lines = try transaction.cartLines(cartId: cartId)
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
            try transaction.setCartLine(cartId: cartId, line: line)
            // A total out of range throws, and the write (the line just set) is undone.
            return try Cart(cartId: cartId, lines: try transaction.cartLines(cartId: cartId), currency: product.currency)
        }, completion: completion)
    }

    /// Removes the cart's line for `sku` entirely and delivers the resulting cart. Removing an
    /// absent line (or from an unknown cart) is not an error.
    /// Calls `completion` exactly once, on `callbackQueue`.
    public func removeFromCart(
        cartId: String,
        sku: String,
        interruption: (any ShopInterruption)?,
        callbackQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Cart, ShopError>) -> Void
    ) {
        store.write(interruption: interruption, callbackQueue: callbackQueue, { transaction in
            try transaction.lockCart(cartId: cartId)
            try transaction.removeCartLine(cartId: cartId, sku: sku)
            return try Cart(cartId: cartId, lines: try transaction.cartLines(cartId: cartId), currency: try self.currency(in: transaction))
        }, completion: completion)
    }

    /// Removes every line and delivers the (empty) cart.
    /// Calls `completion` exactly once, on `callbackQueue`.
    public func clearCart(
        cartId: String,
        interruption: (any ShopInterruption)?,
        callbackQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Cart, ShopError>) -> Void
    ) {
        store.write(interruption: interruption, callbackQueue: callbackQueue, { transaction in
            try transaction.lockCart(cartId: cartId)
            try transaction.clearCart(cartId: cartId)
            return try Cart(cartId: cartId, lines: [], currency: try self.currency(in: transaction))
        }, completion: completion)
    }
}
