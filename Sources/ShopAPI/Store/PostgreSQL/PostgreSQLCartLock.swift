/// The lock that serialises the writes of one cart on PostgreSQL: a transaction-scoped advisory
/// lock keyed by the cart id (`pg_advisory_xact_lock(namespace, hashtext(cart_id))`), taken first
/// by every cart write (`ShopWriteTransaction.lockCart`) and by `shop_place_order`, and released
/// when the transaction ends.
///
/// Why: writes run in `READ COMMITTED` transactions, and `cart.add` reads the line's quantity and
/// writes the sum, so two concurrent adds to one line could both read the old quantity and one add
/// would be lost; an order reads the cart's lines and then empties the cart, so an add landing in
/// between would be deleted without being ordered.
///
/// Lock order: the cart's lock, then (orders only) the stock rows in SKU order. No write takes a
/// stock row before a cart lock, so the two cannot deadlock. Carts whose ids hash alike share a
/// lock; that only makes them wait for each other. The two-key form lives apart from the one-key
/// advisory locks (the schema migration's), so the two never meet.
enum PostgreSQLCartLock {
    /// The first key of every cart lock: "shop" in ASCII, naming the lock space.
    static let namespace: Int32 = 0x7368_6F70

    /// The SQL call that takes the lock of the cart id `expression` (a parameter or a variable).
    static func call(_ expression: String) -> String {
        "pg_advisory_xact_lock(\(namespace), hashtext(\(expression)))"
    }

    /// The statement a transaction runs to take the lock of the cart in `$1`.
    static let statement = "SELECT \(call("$1"))"
}
