import RPCServer
import ShopAPI

// How each `ShopError` is written on the wire (protocol.md, section 7): its code, its
// machine-readable type, one sentence for people, and `data`'s members.

extension ShopError: RPCErrorConvertible {
    public var rpcError: RPCError {
        let details: JSONObject
        switch self {
        case let .notFound(entity, id): details = ["entity": .string(entity), "id": .string(id)]
        case let .outOfStock(sku, requested, available):
            details = ["sku": .string(sku), "requested": .int(Int64(requested)), "available": .int(Int64(available))]
        case let .invalidQuantity(sku, quantity, max):
            details = ["sku": .string(sku), "quantity": .int(Int64(quantity)), "max": .int(Int64(max))]
        case let .cartEmpty(cartId): details = ["cartId": .string(cartId)]
        case let .idempotencyConflict(key, cartId): details = ["idempotencyKey": .string(key), "cartId": .string(cartId)]
        case .invalidCursor, .interrupted: details = [:]
        case let .storage(detail), let .storeBusy(detail): details = ["detail": .string(detail)]
        case let .inventoryUnavailable(detail, status):
            var members: JSONObject = ["detail": .string(detail)]
            if let status { members.append("status", .int(Int64(status))) }
            details = members
        case let .inventoryCircuitOpen(retryAfterMs):
            details = ["detail": .string(Self.circuitOpenDetail(retryAfterMs: retryAfterMs)), "retryAfterMs": .int(Int64(retryAfterMs))]
        case let .inventoryShed(detail):
            details = ["method": "inventory.check", "shed": .bool(true), "detail": .string(detail)]
        }
        return RPCError(code: RPCErrorCode(code), type: type, message: message, details: details)
    }

    /// Stable numeric code. Every shop failure has a code outside JSON-RPC's reserved range
    /// (-32768…-32000), except a shed inventory check, which is answered exactly as the inventory
    /// deadline would be (-32001, `DeadlineExceeded`), only sooner.
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
        case .storeBusy: 1010
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
        case .storeBusy: "StoreBusy"
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
        case .storeBusy:
            "The store is busy with another writer (an import, say); nothing was changed: try again shortly"
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
