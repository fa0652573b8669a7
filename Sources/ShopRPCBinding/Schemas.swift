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

    static let dateTime: JSONValue = ["type": "string", "format": "date-time"]

    /// `schema` with `doc` as its description.
    static func describing(_ schema: JSONValue, _ doc: String) -> JSONValue {
        guard case .object(var members) = schema, !doc.isEmpty else { return schema }
        members.append("description", .string(doc))
        return .object(members)
    }

    /// One product of `admin.products.upsert`: a catalog file's row (protocol.md, "Catalog files").
    /// Titled and described, so the generated clients name its type (`CatalogProduct`) and document
    /// its members.
    static let catalogRow: JSONValue = [
        "title": "CatalogProduct",
        "description": "One product as a catalog file's row: a member left out keeps the product's field (a new SKU needs name, category and a price: priceCents or price).",
        "type": "object",
        "properties": [
            "sku": describing(string, "The product's SKU, its key."),
            "name": describing(string, "The product's name, 1 to 255 characters."),
            "description": describing(string, "What the product is; may be empty."),
            "category": describing(string, "The product's category."),
            "priceCents": describing(["type": "integer", "minimum": 0], "The price in the currency's minor units (cents: 1999 is 19.99 USD); give this or price."),
            "price": describing(
                ["type": ["string", "integer"], "pattern": "^[0-9]+(\\.[0-9]+)?$", "minimum": 0],
                "The price in the currency's major units, read exactly: a string such as \"19.99\" (a JSON number with decimals is refused, since JSON numbers are binary floating point), or an integer; at most the currency's ISO 4217 decimals (USD 2, JPY 0, KWD 3). Give this or priceCents."),
            "currency": describing(string, "ISO 4217 code of the price's currency."),
            "stock": describing(["type": "integer", "minimum": 0], "Units available, set absolutely."),
        ],
        "required": ["sku"],
        "additionalProperties": false,
    ]
}
