// MARK: - ShopError

/// Every failure the shop reports. No other error type escapes `ShopService`: SQLite failures
/// become `.storage`, and SQLite's interrupt becomes `.interrupted`.
///
/// `code` lies outside JSON-RPC's reserved range (-32768…-32000); `type` is the machine-readable
/// name a client switches on; `message` is for people.
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
    /// The database failed (I/O, corruption, full disk, lock timeout). Code 1008, `StorageError`.
    case storage(String)
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
}

// MARK: - Wire representation

extension ShopError {
    /// Stable numeric code, outside JSON-RPC's reserved range.
    public var code: Int {
        switch self {
        case .notFound: 1001
        case .outOfStock: 1002
        case .invalidQuantity: 1003
        case .cartEmpty: 1004
        case .idempotencyConflict: 1005
        case .invalidCursor: 1006
        case .interrupted: 1007
        case .storage: 1008
        case .inventoryUnavailable, .inventoryCircuitOpen: 1009
        case .inventoryShed: -32001
        }
    }

    /// Stable machine-readable name.
    public var type: String {
        switch self {
        case .notFound: "NotFound"
        case .outOfStock: "OutOfStock"
        case .invalidQuantity: "InvalidQuantity"
        case .cartEmpty: "CartEmpty"
        case .idempotencyConflict: "IdempotencyConflict"
        case .invalidCursor: "InvalidCursor"
        case .interrupted: "Interrupted"
        case .storage: "StorageError"
        case .inventoryUnavailable, .inventoryCircuitOpen: "InventoryUnavailable"
        case .inventoryShed: "DeadlineExceeded"
        }
    }

    /// One human-readable sentence, e.g. "Only 2 of SKU-0001 available, 5 requested".
    public var message: String {
        switch self {
        case let .notFound(entity, id):
            "Unknown \(entity) \(Self.quoted(id))"
        case let .outOfStock(sku, requested, available):
            "Only \(available) of \(sku) available, \(requested) requested"
        case let .invalidQuantity(sku, quantity, max):
            "Quantity \(quantity) of \(sku) is not allowed: a cart line holds 1 to \(max)"
        case let .cartEmpty(cartId):
            "Cart \(Self.quoted(cartId)) is empty"
        case let .idempotencyConflict(key, cartId):
            "Idempotency key \(Self.quoted(key)) was already used for a cart other than \(Self.quoted(cartId))"
        case let .invalidCursor(cursor):
            "Cursor \(Self.quoted(cursor)) is not valid for this listing"
        case .interrupted:
            "The operation was interrupted before it finished"
        case let .storage(detail):
            "Storage error: \(detail)"
        case let .inventoryUnavailable(detail, _):
            "Inventory service unavailable: \(detail)"
        case let .inventoryCircuitOpen(retryAfterMs):
            "Inventory service unavailable: \(Self.circuitOpenDetail(retryAfterMs: retryAfterMs))"
        case .inventoryShed:
            ShopMethods.inventoryUnavailableMessage
        }
    }

    /// `data.detail` of `inventoryCircuitOpen`.
    static func circuitOpenDetail(retryAfterMs: Int) -> String {
        "circuit open: the service failed repeatedly and is not asked again for \(retryAfterMs) ms"
    }

    /// Client-supplied text, shortened so a hostile id cannot bloat a message.
    private static func quoted(_ text: String) -> String {
        let limit = 64
        return text.count <= limit ? text : String(text.prefix(limit)) + "…"
    }
}
