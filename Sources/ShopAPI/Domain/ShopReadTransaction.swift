/// Primitive reads inside one store transaction. Used only on the thread that received it, and
/// only while the transaction's closure runs. Methods throw storage errors (any `Error`), which
/// the store maps to `ShopError`.
///
/// The catalog reads (`products`, `product`, `searchProducts`, `available`) see only products in
/// the catalog: an archived product (`shop-rpc import --replace`) is not found by them.
/// `products` and `product` must each run exactly one statement: the service reads them with
/// `ShopStore.readOneStatement`, outside an explicit transaction where the store allows.
protocol ShopReadTransaction {
    /// Products with `sku > afterSku` (all when `nil`), in `category` when given, ordered by SKU.
    func products(afterSku: String?, category: String?, limit: Int) throws -> [Product]
    func product(sku: String) throws -> Product?
    /// Live products in `category` (all when nil). Runs exactly one statement.
    func productCount(category: String?) throws -> Int
    /// Products that have, for every group of `wordGroups`, one of its words among their
    /// `SearchText.productWords`; in catalog order (the order they were first added), at most
    /// `limit`. Groups are non-empty and hold only words as `SearchText` makes them.
    func searchProducts(wordGroups: [[String]], limit: Int) throws -> [Product]
    /// The indexed words (every word any product was ever indexed under) that begin with
    /// `prefix`, in code point order, at most `limit`.
    func indexedWords(beginningWith prefix: String, limit: Int) throws -> [String]
    /// Units available; `nil` for an unknown (or archived) SKU.
    func available(sku: String) throws -> Int?
    /// The currency the store's products are priced in; nil when it has no products yet.
    func catalogCurrency() throws -> String?
    /// In the order their SKUs were first added; empty for an unknown cart.
    func cartLines(cartId: String) throws -> [CartLine]
    func order(id: String) throws -> Order?
    /// Orders placed before the one with `beforeSequence` (all when `nil`), newest first; only
    /// those placed from the cart whose stored key is `cartId` when given, else only those whose
    /// stored cart key begins with `customerPrefix` when given (one customer's, `CustomerKey`).
    func orders(cartId: String?, customerPrefix: String?, beforeSequence: Int64?, limit: Int) throws -> [StoredOrder]
    /// The order an idempotency key placed, if any.
    func orderReference(idempotencyKey: String) throws -> (orderId: String, cartId: String)?
    /// Ledger rows with a sequence above `afterSequence`, made at or after `since` when given (a
    /// timestamp in the ledger's own format, `OrderStamp.timestamp`), in sequence order, at most `limit`.
    func stockMovements(afterSequence: Int64, since: String?, limit: Int) throws -> [StockMovement]
}
