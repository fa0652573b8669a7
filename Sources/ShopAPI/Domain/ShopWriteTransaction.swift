/// Primitive writes inside one atomic store operation. Same thread rules as `ShopReadTransaction`.
protocol ShopWriteTransaction: ShopReadTransaction {
    /// Makes every other write of the same cart (cart writes and orders, in any process) wait until
    /// this transaction ends, so a read-modify-write of the cart (`cart.add` sums quantities) is
    /// not overwritten by a concurrent one. Call it before reading the cart. A store that runs one
    /// write at a time (SQLite's single writer) has nothing to do.
    func lockCart(cartId: String) throws
    /// Inserts the line, or replaces quantity and price of the cart's existing line for its SKU
    /// (keeping its position).
    func setCartLine(cartId: String, line: CartLine) throws
    /// Removes the cart's line for `sku`; no-op when absent.
    func removeCartLine(cartId: String, sku: String) throws
    func clearCart(cartId: String) throws

    // MARK: - Stock and its ledger

    /// The level of `sku`, its row locked against every other writer (in any process) until this
    /// transaction ends, so a read-check-write of the level (`admin.stock.set`) is not overtaken;
    /// nil for an unknown SKU or an archived product (as `available`). A store that runs one write at a time (SQLite) only reads it.
    func lockStock(sku: String) throws -> Int?
    /// Adds `delta` (never 0) to `sku`'s level, taking units when negative, unless the level would
    /// fall below zero, and appends the change's ledger row (`cause`, the new level, the delta).
    /// Returns the new level; nil, changing nothing, for an unknown SKU, too few units, or (with
    /// `onlyIfListed`) a product out of the catalog (archived). The only primitive that changes a
    /// level, so no change goes without its row.
    ///
    /// Lock order (stores with row locks): a transaction that changes several SKUs changes them in
    /// SKU order, after any other lock it takes (a cart's, an order's), so two writers never
    /// wait for each other in a cycle.
    func changeStock(sku: String, by delta: Int, onlyIfListed: Bool, cause: StockChangeCause) throws -> Int?

    // MARK: - Products

    /// Takes the product `sku` is a variant of out of the catalog as `import --replace` does
    /// (status archived, on every variant: out of listings and search; its stock, the carts and
    /// orders holding it kept). Changes nothing for an unknown SKU or a product already archived,
    /// and says which it was.
    func archiveProduct(sku: String) throws -> ProductArchiving

    // MARK: - Search

    /// Replaces the owner's search synonyms with `json` (`SearchSynonyms`' JSON); nil removes them.
    func setSearchSynonymsJSON(_ json: String?) throws

    // MARK: - Orders

    /// The order with `id`, its row locked against every other writer until this transaction ends
    /// (a concurrent cancel of it waits, then sees it cancelled); nil for an unknown order.
    func lockOrder(id: String) throws -> Order?
    /// Records that the order with `id` was cancelled at `at` (status, time, reason). Its lines
    /// and total stay as they are.
    func markOrderCancelled(id: String, at: String, reason: String?) throws
}
