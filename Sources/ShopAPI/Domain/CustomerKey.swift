/// How a customer-bound session's carts and idempotency keys are kept apart from every other
/// customer's on one store: the store holds a customer's cart under the key
/// `customer + U+001F + cartId` (and an idempotency key the same way), and an order placed from
/// that cart keeps that key as its `cart_id`, which is how an order records its customer. The
/// customer is an identifier without control characters (`isValidCustomer`), so the first U+001F
/// of a stored key ends it: two customers' keys never meet, and a key without U+001F (every key an
/// earlier build wrote, and every key of a session without a customer) belongs to no customer.
/// Pure; any thread.
public enum CustomerKey {
    /// Ends the customer's part of a stored key.
    static let separator: Character = "\u{1F}"
    /// Longest customer identifier, in UTF-8 bytes (as every identifier on the wire).
    public static let maxBytes = 256

    /// Whether `customer` can name a customer: non-empty, at most `maxBytes` bytes, no control
    /// characters (Unicode general category Cc).
    public static func isValidCustomer(_ customer: String) -> Bool {
        !customer.isEmpty && customer.utf8.count <= maxBytes && !CatalogFieldRules.containsControlCharacter(customer)
    }

    /// The key the store holds for a client's `id` (a cart id, an idempotency key) in `customer`'s
    /// session; `id` itself without a customer.
    static func stored(_ id: String, customer: String?) -> String {
        guard let customer else { return id.contains(separator) ? String(separator) + id : id }
        return customer + String(separator) + id
    }

    /// The first part of every key `stored` makes for `customer`.
    static func prefix(customer: String) -> String {
        customer + String(separator)
    }

    /// The customer (nil for none) and the client's id a stored key was made of (`stored`'s inverse).
    static func split(_ stored: String) -> (customer: String?, id: String) {
        guard let end = stored.firstIndex(of: separator) else { return (nil, stored) }
        let customer = String(stored[..<end])
        return (customer.isEmpty ? nil : customer, String(stored[stored.index(after: end)...]))
    }
}
