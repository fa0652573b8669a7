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

    /// The schema of a params object; `closed` ones refuse members they do not list.
    static func params(_ properties: JSONObject, required: [String] = [], closed: Bool = false) -> JSONValue {
        var schema: JSONValue = ["type": "object", "properties": .object(properties), "required": .array(required.map { .string($0) })]
        if closed, case .object(var members) = schema {
            members.append("additionalProperties", false)
            schema = .object(members)
        }
        return schema
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
        "description": "One variant as a catalog file's row: a member left out keeps the field (a new SKU of a new product needs name, category and a price: priceCents or price; a product field set on one variant is set on all of its product's).",
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
            "handle": describing(string, "The product this SKU is a variant of; rows with the same handle are one product's variants (default: the SKU)."),
            "brand": describing(string, "The product's brand; may be empty."),
            "status": describing(oneOf(["active", "draft", "archived"]), "active (sold), draft or archived (both invisible to shoppers)."),
            "option1Name": describing(string, "The product's first option name (Size)."),
            "option1Value": describing(string, "This variant's value of the first option (M)."),
            "option2Name": describing(string, "The product's second option name."),
            "option2Value": describing(string, "This variant's value of the second option."),
            "option3Name": describing(string, "The product's third option name."),
            "option3Value": describing(string, "This variant's value of the third option."),
        ],
        "required": ["sku"],
        "additionalProperties": false,
    ]
}
