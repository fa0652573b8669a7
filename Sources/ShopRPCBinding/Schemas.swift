import RPCServer
import ShopAPI

/// JSON Schemas of the shop's params and results, for `rpc.discover`.
enum Schemas {
    static let string: JSONValue = ["type": "string"]

    static func integer(_ range: ClosedRange<Int>) -> JSONValue {
        ["type": "integer", "minimum": .int(Int64(range.lowerBound)), "maximum": .int(Int64(range.upperBound))]
    }

    /// An integer in `range` other than `excluded`.
    static func integer(_ range: ClosedRange<Int>, excluding excluded: Int) -> JSONValue {
        ["type": "integer", "minimum": .int(Int64(range.lowerBound)), "maximum": .int(Int64(range.upperBound)),
         "not": ["const": .int(Int64(excluded))]]
    }

    /// A string that is one of `values`.
    static func oneOf(_ values: [String]) -> JSONValue {
        ["type": "string", "enum": .array(values.map { .string($0) })]
    }

    static func params(_ properties: JSONObject, required: [String] = []) -> JSONValue {
        ["type": "object", "properties": .object(properties), "required": .array(required.map { .string($0) })]
    }

    private static func object(_ properties: JSONObject, optional: Set<String> = []) -> JSONValue {
        let required = properties.members.map(\.key).filter { !optional.contains($0) }
        return ["type": "object", "properties": .object(properties), "required": .array(required.map { .string($0) })]
    }

    private static let integer: JSONValue = ["type": "integer"]

    static let product = object([
        "sku": string, "name": string, "description": string, "category": string, "priceCents": integer, "currency": string,
    ])

    static let line = object(["sku": string, "quantity": integer, "unitPriceCents": integer])

    static let cart = object(["cartId": string, "lines": ["type": "array", "items": line], "totalCents": integer, "currency": string])

    static let order = object([
        "orderId": string, "cartId": string, "lines": ["type": "array", "items": line], "totalCents": integer,
        "currency": string, "status": oneOf([Order.placedStatus, Order.cancelledStatus]),
        "createdAt": ["type": "string", "format": "date-time"],
        "cancelledAt": ["type": "string", "format": "date-time"], "cancelReason": string,
    ], optional: ["cancelledAt", "cancelReason"])

    /// One product of `admin.products.upsert`: a catalog file's row (protocol.md, "Catalog files").
    static let catalogRow: JSONValue = [
        "type": "object",
        "properties": [
            "sku": string, "name": string, "description": string, "category": string,
            "priceCents": ["type": "integer", "minimum": 0], "currency": string, "stock": ["type": "integer", "minimum": 0],
        ],
        "required": ["sku"],
        "additionalProperties": false,
    ]

    /// `admin.products.upsert`'s answer: the import's summary.
    static let importSummary = object([
        "rows": integer, "created": integer, "updated": integer, "unchanged": integer, "archived": integer, "stockSet": integer,
    ])

    /// `admin.products.archive`'s answer.
    static let productsArchived = object(["archived": integer])

    /// `{sku, available}`: one level, as `admin.stock.adjust` and `admin.stock.set` answer.
    static let stockLevel = object(["sku": string, "available": integer])

    static let levels = object(["levels": ["type": "array", "items": object(
        ["sku": string, "available": integer, "stale": ["type": "boolean"], "ageMs": integer], optional: ["stale", "ageMs"])]])

    static func items(of item: JSONValue) -> JSONValue { object(["items": ["type": "array", "items": item]]) }

    static func page(of item: JSONValue) -> JSONValue {
        object(["items": ["type": "array", "items": item], "nextCursor": string], optional: ["nextCursor"])
    }
}
