/// Primitive reads inside one store transaction. Used only on the thread that received it, and
/// only while the transaction's closure runs. Methods throw storage errors (any `Error`), which
/// the store maps to `ShopError`.
///
/// The catalog reads (`products`, `product`, `variantChoices`, `productVariants`, the search
/// reads of `SearchIndexReads`, `available`) see only active products: a draft or an archived product
/// (`status`, `shop-rpc import --replace`) is not found by them. `product` and `productCount`
/// must each run exactly one statement: the service reads them with `ShopStore.readOneStatement`,
/// outside an explicit transaction where the store allows.
protocol ShopReadTransaction: SearchIndexReads {
    /// The first variant of each product whose place in catalog order is after `afterSeq` (all
    /// when `nil`), in `category` when given, in catalog order, with that place, its level and
    /// whether the product has other variants. One statement.
    func products(afterSeq: Int64?, category: String?, limit: Int) throws -> [(seq: Int64, listed: ListedProduct)]
    /// The variant with `sku`.
    func product(sku: String) throws -> Product?
    /// Every variant of each product of `handles`, by handle, each product's in catalog order.
    /// One statement. A page asks it only for the products that have more than one
    /// (`ListedProduct.hasOtherVariants`).
    func variantChoices(handles: [String]) throws -> [String: [VariantChoice]]
    /// Every variant of the product `handle`, in catalog order, with its level; empty for an
    /// unknown product (or one not active).
    func productVariants(handle: String) throws -> [(product: Product, available: Int)]
    /// Live products in `category` (all when nil). Runs exactly one statement.
    func productCount(category: String?) throws -> Int
    /// Units available; `nil` for an unknown (or archived) SKU.
    func available(sku: String) throws -> Int?
    /// The currency the store's products are priced in; nil when it has no products yet.
    func catalogCurrency() throws -> String?
    /// The owner's search synonyms as `setSearchSynonymsJSON` stored them (`SearchSynonyms`'
    /// JSON); nil when none are.
    func searchSynonymsJSON() throws -> String?
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
