import RPCServer
import ShopAPI

// How each `ShopError` is written on the wire (protocol.md, section 7): its code, its
// machine-readable type, one sentence for people, and `data`'s members. A storage error's reason
// (which names the store's tables and statements) is not the caller's business: the reply says
// so in stable words, and the reason goes to the server's log at `--log-level debug`.

extension ShopError: RPCErrorConvertible {
    /// The reply's error. Writing it logs a storage error's reason at debug level (`Log`), the
    /// one place that reason can still be read.
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
        case let .storage(reason):
            Log.debug("StorageError (1008) answered without its reason: \(reason)")
            details = ["detail": .string(Self.storageDetail)]
        case let .storeUnreachable(retryInMilliseconds, lastFailure):
            Log.debug("StorageError (1008) answered without its reason: \(lastFailure)")
            details = ["detail": .string(Self.unreachableDetail(retryInMilliseconds)), "retryAfterMs": .int(Int64(retryInMilliseconds))]
        case let .storeBusy(detail): details = ["detail": .string(detail)]
        case let .inventoryUnavailable(detail, status):
            var members: JSONObject = ["detail": .string(detail)]
            if let status { members.append("status", .int(Int64(status))) }
            details = members
        case let .inventoryCircuitOpen(retryAfterMs):
            details = ["detail": .string(Self.circuitOpenDetail(retryAfterMs: retryAfterMs)), "retryAfterMs": .int(Int64(retryAfterMs))]
        case let .inventoryShed(detail):
            details = ["method": "inventory.check", "shed": .bool(true), "detail": .string(detail)]
        case let .stockOutOfRange(sku, available, delta, max):
            details = ["sku": .string(sku), "available": .int(Int64(available)), "delta": .int(Int64(delta)), "max": .int(Int64(max))]
        case let .stockMismatch(sku, expected, available):
            details = ["sku": .string(sku), "expected": .int(Int64(expected)), "available": .int(Int64(available))]
        case let .cartFull(cartId, lines, max):
            details = ["cartId": .string(cartId), "lines": .int(Int64(lines)), "max": .int(Int64(max))]
        case let .cartTotalOutOfRange(cartId):
            details = ["cartId": .string(cartId), "max": .int(Int64(ShopLimits.maxCartLines)), "totalOutOfRange": .bool(true)]
        case let .invalidProducts(errors, more):
            var members: JSONObject = ["detail": .string(Self.productsDetail(errors, more: more))]
            if let first = errors.first { members.append("field", .string(Self.productField(first))) }
            members.append("errors", .array(errors.map { error in
                ["index": .int(Int64(error.line - 1)), "field": .string(Self.productField(error)), "message": .string(error.message)]
            }))
            if more > 0 { members.append("more", .int(Int64(more))) }
            details = members
        }
        return RPCError(code: RPCErrorCode(code), type: type, message: message, details: details)
    }

    /// Its type on the wire. A shed inventory check and invalid products are none of the shop's
    /// own: they are answered as the deadline (-32001) and invalid params (-32602) are.
    var kind: ShopErrorKind? {
        switch self {
        case .notFound: .notFound
        case .outOfStock: .outOfStock
        case .invalidQuantity: .invalidQuantity
        case .cartEmpty: .cartEmpty
        case .idempotencyConflict: .idempotencyConflict
        case .invalidCursor: .invalidCursor
        case .interrupted: .interrupted
        case .storage, .storeUnreachable: .storage
        case .storeBusy: .storeBusy
        case .inventoryUnavailable, .inventoryCircuitOpen: .inventoryUnavailable
        case .stockOutOfRange: .stockOutOfRange
        case .stockMismatch: .stockMismatch
        case .cartFull, .cartTotalOutOfRange: .cartFull
        case .inventoryShed, .invalidProducts: nil
        }
    }

    /// Stable numeric code. Every shop failure has a code outside JSON-RPC's reserved range
    /// (-32768…-32000), except a shed inventory check, which is answered exactly as the inventory
    /// deadline would be (-32001, `DeadlineExceeded`), only sooner, and invalid products (-32602).
    public var code: Int {
        switch self {
        case .inventoryShed: RPCErrorCode.deadlineExceeded.rawValue
        case .invalidProducts: RPCErrorCode.invalidParams.rawValue
        default: kind?.code ?? RPCErrorCode.internalError.rawValue
        }
    }

    /// Stable machine-readable name.
    public var type: String {
        switch self {
        case .inventoryShed: "DeadlineExceeded"
        case .invalidProducts: "InvalidParams"
        default: kind?.type ?? "InternalError"
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
        case .storage:
            "The store could not complete the operation"
        case let .storeUnreachable(retryInMilliseconds, _):
            "The store could not complete the operation: \(Self.unreachableDetail(retryInMilliseconds))"
        case .storeBusy:
            "The store is busy with another writer (an import, say); nothing was changed: try again shortly"
        case let .inventoryUnavailable(detail, _):
            "Inventory service unavailable: \(detail)"
        case let .inventoryCircuitOpen(retryAfterMs):
            "Inventory service unavailable: \(Self.circuitOpenDetail(retryAfterMs: retryAfterMs))"
        case .inventoryShed:
            ShopMethods.inventoryUnavailableMessage
        case let .stockOutOfRange(sku, available, delta, max):
            "\(sku) has \(available) available: a change of \(delta) would leave \(Self.levelAfter(available, delta)), outside 0…\(max); nothing was changed"
        case let .stockMismatch(sku, expected, available):
            "\(sku) has \(available) available, not the expected \(expected); nothing was changed"
        case let .cartFull(cartId, lines, max):
            "Cart \(Self.quoted(cartId)) is full: it holds \(lines) lines, at most \(max) are allowed; nothing was changed"
        case let .cartTotalOutOfRange(cartId):
            "Cart \(Self.quoted(cartId)) is worth more than a total can hold: remove lines; nothing was changed"
        case let .invalidProducts(errors, more):
            "Invalid params: \(Self.productsDetail(errors, more: more))"
        }
    }

    /// `data.detail` of `invalidProducts`: the first error, and how many more there are.
    static func productsDetail(_ errors: [CatalogFileError], more: Int) -> String {
        guard let first = errors.first else { return "the products break the catalog's rules" }
        let others = errors.count - 1 + more
        return "'\(productField(first))': \(first.message)" + (others > 0 ? " (and \(others) more error\(others == 1 ? "" : "s"), in data.errors)" : "")
    }

    /// The params member an error of the `line`-th product names: `products[2].name`, or the
    /// product itself (`products[2]`) for what is wrong with it as a whole.
    static func productField(_ error: CatalogFileError) -> String {
        let product = "products[\(error.line - 1)]"
        return error.field == "line" || error.field.isEmpty ? product : "\(product).\(error.field)"
    }

    /// `data.detail` of `storage`: the same words whatever failed (the reason is in the server's log).
    static let storageDetail = "the store failed; the server's log has the reason"

    /// `data.detail` of `storeUnreachable`.
    static func unreachableDetail(_ retryInMilliseconds: Int) -> String {
        "the database is unreachable; the next reconnect attempt is in \(retryInMilliseconds) ms"
    }

    /// The level a change would leave, for the message: the sum checked, since `delta` may be a
    /// caller's saturated value (`ShopService.setStock` reports Int.min for an `available` of Int.min).
    static func levelAfter(_ available: Int, _ delta: Int) -> String {
        let (after, overflow) = available.addingReportingOverflow(delta)
        return overflow ? "a level no integer can hold" : String(after)
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
