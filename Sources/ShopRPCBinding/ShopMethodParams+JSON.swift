import RPCServer
import ShopAPI

// Each shop params type read straight from the parsed JSON (`JSONValueDecodable`): only the valid
// shapes; anything else returns nil and the engine decodes with `Decodable`, whose error names the
// field. `ShopMethodParamsJSONTests` checks every type against `Decodable` on valid and invalid
// params alike. Unknown members are ignored, as `Decodable` ignores them.

extension CatalogListParams {
    init?(jsonValue: JSONValue) {
        guard let members = ParamsMembers(jsonValue), let cursor = members.optionalString("cursor"),
              let limit = members.optionalInt("limit"), let category = members.optionalString("category") else { return nil }
        self.init(cursor: cursor, limit: limit, category: category)
    }
}

extension SkuParams {
    init?(jsonValue: JSONValue) {
        guard let members = ParamsMembers(jsonValue), let sku = members.string("sku") else { return nil }
        self.init(sku: sku)
    }
}

extension CatalogSearchParams {
    init?(jsonValue: JSONValue) {
        guard let members = ParamsMembers(jsonValue), let query = members.string("query"),
              let limit = members.optionalInt("limit") else { return nil }
        self.init(query: query, limit: limit)
    }
}

extension InventoryCheckParams {
    init?(jsonValue: JSONValue) {
        guard let members = ParamsMembers(jsonValue), let skus = members.strings("skus") else { return nil }
        self.init(skus: skus)
    }
}

extension CartParams {
    init?(jsonValue: JSONValue) {
        guard let members = ParamsMembers(jsonValue), let cartId = members.string("cartId") else { return nil }
        self.init(cartId: cartId)
    }
}

extension CartLineParams {
    init?(jsonValue: JSONValue) {
        guard let members = ParamsMembers(jsonValue), let cartId = members.string("cartId"), let sku = members.string("sku") else { return nil }
        self.init(cartId: cartId, sku: sku)
    }
}

extension CartAddParams {
    init?(jsonValue: JSONValue) {
        guard let members = ParamsMembers(jsonValue), let cartId = members.string("cartId"), let sku = members.string("sku"),
              let quantity = members.int("quantity") else { return nil }
        self.init(cartId: cartId, sku: sku, quantity: quantity)
    }
}

extension PlaceOrderParams {
    init?(jsonValue: JSONValue) {
        guard let members = ParamsMembers(jsonValue), let cartId = members.string("cartId"),
              let idempotencyKey = members.string("idempotencyKey") else { return nil }
        self.init(cartId: cartId, idempotencyKey: idempotencyKey)
    }
}

extension OrderParams {
    init?(jsonValue: JSONValue) {
        guard let members = ParamsMembers(jsonValue), let orderId = members.string("orderId") else { return nil }
        self.init(orderId: orderId)
    }
}

extension OrdersListParams {
    init?(jsonValue: JSONValue) {
        guard let members = ParamsMembers(jsonValue), let cartId = members.optionalString("cartId"),
              let cursor = members.optionalString("cursor"), let limit = members.optionalInt("limit") else { return nil }
        self.init(cartId: cartId, cursor: cursor, limit: limit)
    }
}

extension CancelOrderParams {
    init?(jsonValue: JSONValue) {
        guard let members = ParamsMembers(jsonValue), let orderId = members.string("orderId"),
              let reason = members.optionalString("reason") else { return nil }
        self.init(orderId: orderId, reason: reason)
    }
}

extension StockAdjustParams {
    init?(jsonValue: JSONValue) {
        guard let members = ParamsMembers(jsonValue), let sku = members.string("sku"), let delta = members.int("delta"),
              let reason = members.string("reason") else { return nil }
        self.init(sku: sku, delta: delta, reason: reason)
    }
}

extension StockSetParams {
    init?(jsonValue: JSONValue) {
        guard let members = ParamsMembers(jsonValue), let sku = members.string("sku"), let available = members.int("available"),
              let expected = members.optionalInt("expected") else { return nil }
        self.init(sku: sku, available: available, expected: expected)
    }
}

extension ProductsUpsertParams {
    init?(jsonValue: JSONValue) {
        guard let members = ParamsMembers(jsonValue), case .array(let products)? = members.object["products"] else { return nil }
        self.init(products: products)
    }
}

extension ProductsArchiveParams {
    init?(jsonValue: JSONValue) {
        guard let members = ParamsMembers(jsonValue), let skus = members.strings("skus") else { return nil }
        self.init(skus: skus)
    }
}

/// The members of a params object, read the way `Decodable` reads them (the last of repeated
/// names), answering nil wherever `Decodable` might disagree or fail.
private struct ParamsMembers {
    let object: JSONObject

    /// Nil unless the params are an object (`Decodable` rejects anything else).
    init?(_ params: JSONValue) {
        guard case .object(let object) = params else { return nil }
        self.object = object
    }

    func string(_ key: String) -> String? {
        guard case .string(let string)? = object[key] else { return nil }
        return string
    }

    /// Integers only as JSON integers; `2.0`, which `Decodable` also accepts, is left to it.
    func int(_ key: String) -> Int? {
        guard case .int(let number)? = object[key] else { return nil }
        return Int(exactly: number)
    }

    func strings(_ key: String) -> [String]? {
        guard case .array(let elements)? = object[key] else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for element in elements {
            guard case .string(let string) = element else { return nil }
            strings.append(string)
        }
        return strings
    }

    /// `.some(nil)` when absent or null (as `decodeIfPresent`), `.some(value)` for a string, nil otherwise.
    func optionalString(_ key: String) -> String?? {
        guard let value = object[key], value != .null else { return .some(nil) }
        guard case .string(let string) = value else { return nil }
        return .some(string)
    }

    /// As `optionalString`, for an integer.
    func optionalInt(_ key: String) -> Int?? {
        guard let value = object[key], value != .null else { return .some(nil) }
        guard case .int(let number) = value, let int = Int(exactly: number) else { return nil }
        return .some(int)
    }
}
