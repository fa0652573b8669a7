import RPCServer
import ShopAPI

/// The shop's error types on the wire, declared once: each one's code, its `data.type`, when it
/// is answered, and the members of its `data`. `ShopError+RPC.swift` maps every `ShopError` case
/// to one; the method table (`ShopMethods`) names those each method may answer, which
/// `rpc.discover` lists and the generated clients turn into error classes.
enum ShopErrorKind: CaseIterable, Sendable {
    case notFound, outOfStock, invalidQuantity, cartEmpty, idempotencyConflict, invalidCursor, interrupted, storage,
         inventoryUnavailable, storeBusy, stockOutOfRange, stockMismatch, cartFull

    var code: Int {
        switch self {
        case .notFound: 1001
        case .outOfStock: 1002
        case .invalidQuantity: 1003
        case .cartEmpty: 1004
        case .idempotencyConflict: 1005
        case .invalidCursor: 1006
        case .interrupted: 1007
        case .storage: 1008
        case .inventoryUnavailable: 1009
        case .storeBusy: 1010
        case .stockOutOfRange: 1011
        case .stockMismatch: 1012
        case .cartFull: 1013
        }
    }

    /// `data.type`: the stable name a client switches on.
    var type: String {
        switch self {
        case .notFound: "NotFound"
        case .outOfStock: "OutOfStock"
        case .invalidQuantity: "InvalidQuantity"
        case .cartEmpty: "CartEmpty"
        case .idempotencyConflict: "IdempotencyConflict"
        case .invalidCursor: "InvalidCursor"
        case .interrupted: "Interrupted"
        case .storage: "StorageError"
        case .inventoryUnavailable: "InventoryUnavailable"
        case .storeBusy: "StoreBusy"
        case .stockOutOfRange: "StockOutOfRange"
        case .stockMismatch: "StockMismatch"
        case .cartFull: "CartFull"
        }
    }

    /// When it is answered, in one sentence.
    var summary: String {
        switch self {
        case .notFound: "No such product, cart or order."
        case .outOfStock: "Not enough stock for an order line."
        case .invalidQuantity: "A cart line would hold more than \(ShopLimits.maxLineQuantity) units."
        case .cartEmpty: "An order was placed for an empty cart."
        case .idempotencyConflict: "An idempotency key was used before for another cart."
        case .invalidCursor: "A cursor is not one this listing issued."
        case .interrupted: "The store stopped the work (normally answered as the deadline or cancel that stopped it)."
        case .storage: "The store failed; nothing is said of why but in the server's log."
        case .inventoryUnavailable: "The inventory service gave no usable answer."
        case .storeBusy: "Another writer held the store too long; nothing was changed, and the call may be made again."
        case .stockOutOfRange: "The change would leave the level below 0 or above \(ShopLimits.maxStock); nothing was changed."
        case .stockMismatch: "The level was not the expected one; nothing was changed."
        case .cartFull: "A new line past \(ShopLimits.maxCartLines) lines, or a cart whose total cannot be represented; nothing was changed."
        }
    }

    /// JSON Schemas of `data`'s members other than `type`.
    var data: JSONObject {
        let string = Schemas.string
        let integer: JSONValue = ["type": "integer"]
        switch self {
        case .notFound: return ["entity": Schemas.oneOf(["product", "cart", "order"]), "id": string]
        case .outOfStock: return ["sku": string, "requested": integer, "available": integer]
        case .invalidQuantity: return ["sku": string, "quantity": integer, "max": integer]
        case .cartEmpty: return ["cartId": string]
        case .idempotencyConflict: return ["idempotencyKey": string, "cartId": string]
        case .invalidCursor, .interrupted: return [:]
        case .storage: return ["detail": string, "retryAfterMs": integer]
        case .inventoryUnavailable: return ["detail": string, "status": integer, "retryAfterMs": integer]
        case .storeBusy: return ["detail": string]
        case .stockOutOfRange: return ["sku": string, "available": integer, "delta": integer, "max": integer]
        case .stockMismatch: return ["sku": string, "expected": integer, "available": integer]
        case .cartFull: return ["cartId": string, "lines": integer, "max": integer, "totalOutOfRange": ["type": "boolean"]]
        }
    }

    /// As `rpc.discover` lists it.
    var methodError: MethodError {
        MethodError(code: code, type: type, summary: summary, data: data)
    }

    /// What any method that reads or writes the store may answer.
    static let store: [ShopErrorKind] = [.interrupted, .storage, .storeBusy]
}
