/// Every failure the shop reports. No other error type escapes `ShopService`: SQLite failures
/// become `.storage`, and SQLite's interrupt becomes `.interrupted`.
///
/// The shop says what went wrong and with which values; how a failure is written on the wire (its
/// code, the machine-readable `type` a client switches on, the sentence for people) is the JSON-RPC
/// binding's business (`ShopError+RPC.swift` in ShopRPCBinding). The codes and types named below
/// are those the binding gives.
public enum ShopError: Error, Sendable, Equatable {
    /// No such entity. `entity` is `"product"`, `"cart"` or `"order"`. Code 1001, `NotFound`.
    case notFound(entity: String, id: String)
    /// Fewer than `requested` units left; `available` is the level when the order was tried.
    /// Code 1002, `OutOfStock`.
    case outOfStock(sku: String, requested: Int, available: Int)
    /// A line would hold `quantity` units, outside `1...max`. For an add that would overflow the
    /// line, `quantity` is the resulting line quantity. Code 1003, `InvalidQuantity`.
    case invalidQuantity(sku: String, quantity: Int, max: Int)
    /// An order was placed from a cart with no lines. Code 1004, `CartEmpty`.
    case cartEmpty(cartId: String)
    /// `key` already placed an order for another cart; `cartId` is the cart of the rejected request.
    /// Code 1005, `IdempotencyConflict`.
    case idempotencyConflict(key: String, cartId: String)
    /// A cursor that this server did not issue for this listing (the value as received).
    /// Code 1006, `InvalidCursor`.
    case invalidCursor(String)
    /// Work stopped because its caller cancelled it or its deadline passed; nothing was changed.
    /// Code 1007, `Interrupted`.
    case interrupted
    /// The database failed (I/O, corruption, full disk, a lost connection, a schema someone
    /// changed). The text is the store's own reason, naming its tables and statements: for the
    /// operator's log, never for the client, which gets a stable sentence instead. Code 1008,
    /// `StorageError`.
    case storage(String)
    /// The database cannot be reached: the last attempt to connect failed (`lastFailure`, for the
    /// operator's log, like `storage`'s text), and the next is not made before `retryInMilliseconds`
    /// have passed. Code 1008, `StorageError`, like any other failure of the database.
    case storeUnreachable(retryInMilliseconds: Int, lastFailure: String)
    /// Another writer held the store longer than this write would wait (its busy timeout): a
    /// `shop-rpc import` in progress, say. Nothing was changed; the same call may simply be made
    /// again later. Code 1010, `StoreBusy`.
    case storeBusy(detail: String)
    /// The inventory service (`--inventory-url`) did not give a usable answer: it refused the
    /// connection, answered a non-200 status (`status`), or sent a body that is not a valid stock
    /// answer for the asked SKUs. Code 1009, `InventoryUnavailable`.
    case inventoryUnavailable(detail: String, status: Int?)
    /// The inventory service failed several times in a row, so checks are answered at once
    /// without asking it until `retryAfterMs` has passed (its circuit breaker is open). Code 1009,
    /// `InventoryUnavailable`, like any other failure of the service.
    case inventoryCircuitOpen(retryAfterMs: Int)
    /// The inventory service is too busy to answer this check before its deadline, so it was
    /// answered at once instead of after the deadline ("load shedding"; `detail` says why). Code
    /// -32001, `DeadlineExceeded`, with the inventory deadline message and `data.shed: true`: to a
    /// client it is the deadline's answer, only sooner.
    case inventoryShed(detail: String)
    /// A stock change would leave `sku`'s level outside `0...max` (below zero, above
    /// `ShopLimits.maxStock`): `available` is the level it found, `delta` the change asked.
    /// Nothing changed. Code 1011, `StockOutOfRange`.
    case stockOutOfRange(sku: String, available: Int, delta: Int, max: Int)
    /// Products given to `admin.products.upsert` broke the catalog import's rules; nothing was
    /// written. `errors` are the first ones in product order (`line` is the product's position,
    /// from 1), `more` counts the rest. Code -32602, `InvalidParams` (the params are at fault),
    /// with `data.field` naming the first (`products[3].priceCents`) and `data.errors` listing them.
    case invalidProducts(errors: [CatalogFileError], more: Int)
    /// A compare-and-set (`admin.stock.set` with `expected`) found `available`, not `expected`.
    /// Nothing changed. Code 1012, `StockMismatch`.
    case stockMismatch(sku: String, expected: Int, available: Int)
    /// A `cart.add` would start a new line in a cart that already holds `lines` lines, `max`
    /// (`ShopLimits.maxCartLines`) or more; adding to one of its lines still works. Nothing
    /// changed. Code 1013, `CartFull`.
    case cartFull(cartId: String, lines: Int, max: Int)
    /// The cart's total (or the order's it would become) is more than an Int64 of cents holds,
    /// which only a cart written before `ShopLimits.maxCartLines` existed can reach. Every reply
    /// that carries the cart's total fails so (`cart`, `addToCart`, `removeFromCart`,
    /// `placeOrder`); `clearCart` empties it. Nothing changed. Code 1013, `CartFull`.
    case cartTotalOutOfRange(cartId: String)
}
