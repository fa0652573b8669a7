import RPCServer
import ShopAPI

/// Params of a shop method: decoded by the engine (types, presence), then range-checked here so
/// every violation is a -32602 naming its field. Each also reads its valid shapes straight from the
/// parsed JSON (`JSONValueDecodable`, in ShopMethodParams+JSON.swift), leaving `Decodable` to
/// explain the invalid ones.
protocol ValidatedParams: JSONValueDecodable, Sendable {
    func validate() throws(RPCError)
}

// MARK: - Checks

private func requireIdentifier(_ value: String, _ field: String) throws(RPCError) {
    guard !value.isEmpty else { throw .invalidParams("'\(field)' must be a non-empty string", field: field) }
    guard value.utf8.count <= 256 else { throw .invalidParams("'\(field)' must be at most 256 bytes", field: field) }
}

private func requireRange(_ value: Int?, _ range: ClosedRange<Int>, _ field: String) throws(RPCError) {
    guard let value else { return }
    guard range.contains(value) else {
        throw .invalidParams("'\(field)' must be between \(range.lowerBound) and \(range.upperBound)", field: field)
    }
}

private let pageLimit = 1...ShopLimits.maxPageSize

// MARK: - Params

struct CatalogListParams: ValidatedParams {
    var cursor: String?
    var limit: Int?
    var category: String?
    func validate() throws(RPCError) { try requireRange(limit, pageLimit, "limit") }
    static let schema = Schemas.params(["cursor": Schemas.string, "limit": Schemas.integer(pageLimit), "category": Schemas.string])
}

struct SkuParams: ValidatedParams {
    var sku: String
    func validate() throws(RPCError) { try requireIdentifier(sku, "sku") }
    static let schema = Schemas.params(["sku": Schemas.string], required: ["sku"])
}

struct CatalogSearchParams: ValidatedParams {
    var query: String
    var limit: Int?
    func validate() throws(RPCError) {
        guard query.utf8.count <= 1024 else { throw .invalidParams("'query' must be at most 1024 bytes", field: "query") }
        try requireRange(limit, pageLimit, "limit")
    }
    static let schema = Schemas.params(["query": Schemas.string, "limit": Schemas.integer(pageLimit)], required: ["query"])
}

struct InventoryCheckParams: ValidatedParams {
    var skus: [String]
    func validate() throws(RPCError) {
        guard (1...ShopLimits.maxSkusPerCheck).contains(skus.count) else {
            throw .invalidParams("'skus' must hold 1 to \(ShopLimits.maxSkusPerCheck) skus", field: "skus")
        }
        for (index, sku) in skus.enumerated() { try requireIdentifier(sku, "skus[\(index)]") }
    }
    static let schema = Schemas.params(
        ["skus": ["type": "array", "items": Schemas.string, "minItems": 1, "maxItems": .int(Int64(ShopLimits.maxSkusPerCheck))]],
        required: ["skus"])
}

struct CartParams: ValidatedParams {
    var cartId: String
    func validate() throws(RPCError) { try requireIdentifier(cartId, "cartId") }
    static let schema = Schemas.params(["cartId": Schemas.string], required: ["cartId"])
}

struct CartLineParams: ValidatedParams {
    var cartId: String
    var sku: String
    func validate() throws(RPCError) {
        try requireIdentifier(cartId, "cartId")
        try requireIdentifier(sku, "sku")
    }
    static let schema = Schemas.params(["cartId": Schemas.string, "sku": Schemas.string], required: ["cartId", "sku"])
}

struct CartAddParams: ValidatedParams {
    var cartId: String
    var sku: String
    var quantity: Int
    func validate() throws(RPCError) {
        try requireIdentifier(cartId, "cartId")
        try requireIdentifier(sku, "sku")
        // Above the line maximum is the shop's own InvalidQuantity error, which names the limit.
        guard quantity >= 1 else { throw .invalidParams("'quantity' must be at least 1", field: "quantity") }
    }
    static let schema = Schemas.params(
        ["cartId": Schemas.string, "sku": Schemas.string, "quantity": Schemas.integer(1...ShopLimits.maxLineQuantity)],
        required: ["cartId", "sku", "quantity"])
}

struct PlaceOrderParams: ValidatedParams {
    var cartId: String
    var idempotencyKey: String
    func validate() throws(RPCError) {
        try requireIdentifier(cartId, "cartId")
        try requireIdentifier(idempotencyKey, "idempotencyKey")
    }
    static let schema = Schemas.params(["cartId": Schemas.string, "idempotencyKey": Schemas.string], required: ["cartId", "idempotencyKey"])
}

struct OrderParams: ValidatedParams {
    var orderId: String
    func validate() throws(RPCError) { try requireIdentifier(orderId, "orderId") }
    static let schema = Schemas.params(["orderId": Schemas.string], required: ["orderId"])
}

struct OrdersListParams: ValidatedParams {
    var cartId: String?
    var cursor: String?
    var limit: Int?
    func validate() throws(RPCError) {
        if let cartId { try requireIdentifier(cartId, "cartId") }
        try requireRange(limit, pageLimit, "limit")
    }
    static let schema = Schemas.params(["cartId": Schemas.string, "cursor": Schemas.string, "limit": Schemas.integer(pageLimit)])
}

struct CancelOrderParams: ValidatedParams {
    var orderId: String
    var reason: String?
    func validate() throws(RPCError) {
        try requireIdentifier(orderId, "orderId")
        if let reason {
            guard !reason.isEmpty, reason.utf8.count <= ShopLimits.maxCancelReasonBytes else {
                throw .invalidParams("'reason' must be a non-empty string of at most \(ShopLimits.maxCancelReasonBytes) bytes", field: "reason")
            }
        }
    }
    static let schema = Schemas.params(["orderId": Schemas.string, "reason": Schemas.string], required: ["orderId"])
}

private let stockLevels = 0...ShopLimits.maxStock
/// Deltas an adjust may ask (zero excluded separately). A range test, not `abs(delta) <= max`:
/// `abs(-2^63)` cannot be represented and traps, and -2^63 is a value a client can send.
private let stockDeltas = -ShopLimits.maxStock...ShopLimits.maxStock

struct StockAdjustParams: ValidatedParams {
    var sku: String
    var delta: Int
    var reason: String
    /// `reason` as the shop's type; valid once `validate()` passed.
    var adjustmentReason: StockAdjustmentReason? { StockAdjustmentReason(rawValue: reason) }
    func validate() throws(RPCError) {
        try requireIdentifier(sku, "sku")
        guard delta != 0, stockDeltas.contains(delta) else {
            throw .invalidParams("'delta' must be a non-zero integer between -\(ShopLimits.maxStock) and \(ShopLimits.maxStock)", field: "delta")
        }
        guard adjustmentReason != nil else {
            let accepted = StockAdjustmentReason.allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalidParams("'reason' must be one of \(accepted)", field: "reason")
        }
    }
    static let schema = Schemas.params(
        ["sku": Schemas.string, "delta": Schemas.integer(stockDeltas, excluding: 0),
         "reason": Schemas.oneOf(StockAdjustmentReason.allCases.map(\.rawValue))],
        required: ["sku", "delta", "reason"])
}

struct StockSetParams: ValidatedParams {
    var sku: String
    var available: Int
    var expected: Int?
    func validate() throws(RPCError) {
        try requireIdentifier(sku, "sku")
        try requireRange(available, stockLevels, "available")
        if let expected, expected < 0 { throw .invalidParams("'expected' must be at least 0", field: "expected") }
    }
    static let schema = Schemas.params(
        ["sku": Schemas.string, "available": Schemas.integer(stockLevels), "expected": ["type": "integer", "minimum": 0]],
        required: ["sku", "available"])
}

private let productsPerCall = 1...ShopLimits.maxProductsPerCall

struct ProductsUpsertParams: ValidatedParams {
    /// Each a product object with the catalog file's members (`sku` and any of the others).
    var products: [JSONValue]
    func validate() throws(RPCError) {
        guard productsPerCall.contains(products.count) else {
            throw .invalidParams("'products' must hold 1 to \(ShopLimits.maxProductsPerCall) products", field: "products")
        }
        for (index, product) in products.enumerated() {
            guard case .object = product else {
                throw .invalidParams("'products[\(index)]' must be an object such as {\"sku\": …}", field: "products[\(index)]")
            }
        }
    }
    static let schema = Schemas.params(
        ["products": ["type": "array", "minItems": 1, "maxItems": .int(Int64(ShopLimits.maxProductsPerCall)), "items": Schemas.catalogRow]],
        required: ["products"])

    /// The products as a catalog file's NDJSON, one per line in order, which the import's reader
    /// checks with the file's rules (so products[i] is the file's line i + 1).
    static func ndjson(_ products: [JSONValue]) -> [UInt8] {
        var bytes: [UInt8] = []
        for product in products {
            JSONWriter.write(product, into: &bytes)
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }
}

struct ProductsArchiveParams: ValidatedParams {
    var skus: [String]
    func validate() throws(RPCError) {
        guard productsPerCall.contains(skus.count) else {
            throw .invalidParams("'skus' must hold 1 to \(ShopLimits.maxProductsPerCall) skus", field: "skus")
        }
        for (index, sku) in skus.enumerated() { try requireIdentifier(sku, "skus[\(index)]") }
    }
    static let schema = Schemas.params(
        ["skus": ["type": "array", "items": Schemas.string, "minItems": 1, "maxItems": .int(Int64(ShopLimits.maxProductsPerCall))]],
        required: ["skus"])
}
