import RPCServer
import ShopAPI

/// One member of a method's params, declared once: its JSON name, what it means, its JSON Schema
/// (type and bounds) and the checks a value must pass. A params type lists its fields
/// (`DeclaredParams.fields`), and its schema, its direct reading from parsed JSON, its `Decodable`
/// conformance and its validation all come from that list. Immutable; `Sendable`. A class, so
/// that walking a type's fields on the hot path touches one reference per field, not each closure
/// and schema a struct would copy.
///
/// ```swift
/// struct CartAddParams: DeclaredParams {
///     var cartId = "", sku = "", quantity = 0
///     static let fields: [ParamField<Self>] = [
///         .identifier("cartId", \.cartId, "The cart."),
///         .identifier("sku", \.sku, "The product."),
///         .integer("quantity", \.quantity, 1...999, "Units to add."),
///     ]
/// }
/// ```
final class ParamField<Params>: Sendable {
    let name: String
    let required: Bool
    /// The member's JSON Schema, its `description` included.
    let schema: JSONValue
    /// Reads the member's valid shapes from `members` into the params; false for anything else
    /// (absent when required, another type), which `decode` then explains.
    let read: @Sendable (ParamsMembers, inout Params) -> Bool
    /// Decodes the member into the params: `Decodable`'s path, whose errors name the member.
    let decode: @Sendable (KeyedDecodingContainer<ParamKey>, inout Params) throws -> Void
    /// Checks the value's bounds: a -32602 naming the member.
    let validate: @Sendable (Params) throws(RPCError) -> Void

    init(name: String, required: Bool, schema: JSONValue, read: @escaping @Sendable (ParamsMembers, inout Params) -> Bool,
         decode: @escaping @Sendable (KeyedDecodingContainer<ParamKey>, inout Params) throws -> Void,
         validate: @escaping @Sendable (Params) throws(RPCError) -> Void) {
        self.name = name
        self.required = required
        self.schema = schema
        self.read = read
        self.decode = decode
        self.validate = validate
    }
}

// MARK: - Kinds of members

extension ParamField {
    /// A required identifier (`sku`, `cartId`, …): a non-empty string of at most 256 bytes.
    static func identifier(_ name: String, _ path: WritableKeyPath<Params, String> & Sendable, _ doc: String) -> ParamField {
        required(name, path, schema: Schemas.string, doc: doc) { value throws(RPCError) in try ParamChecks.identifier(value, name) }
    }

    /// An optional identifier.
    static func optionalIdentifier(_ name: String, _ path: WritableKeyPath<Params, String?> & Sendable, _ doc: String) -> ParamField {
        optional(name, path, schema: Schemas.string, doc: doc) { value throws(RPCError) in try ParamChecks.identifier(value, name) }
    }

    /// A required string of at most `maxBytes` UTF-8 bytes, possibly empty.
    static func text(_ name: String, _ path: WritableKeyPath<Params, String> & Sendable, maxBytes: Int, _ doc: String) -> ParamField {
        required(name, path, schema: ["type": "string", "maxLength": .int(Int64(maxBytes))], doc: doc) { value throws(RPCError) in
            guard value.utf8.count <= maxBytes else { throw .invalidParams("'\(name)' must be at most \(maxBytes) bytes", field: name) }
        }
    }

    /// An optional string of `bytes` UTF-8 bytes.
    static func optionalText(_ name: String, _ path: WritableKeyPath<Params, String?> & Sendable, bytes: ClosedRange<Int>, _ doc: String) -> ParamField {
        let schema: JSONValue = ["type": "string", "minLength": .int(Int64(bytes.lowerBound)), "maxLength": .int(Int64(bytes.upperBound))]
        return optional(name, path, schema: schema, doc: doc) { value throws(RPCError) in
            guard bytes.contains(value.utf8.count) else {
                throw .invalidParams("'\(name)' must be a \(bytes.lowerBound > 0 ? "non-empty " : "")string of at most \(bytes.upperBound) bytes", field: name)
            }
        }
    }

    /// A required string that is one of `values`.
    static func oneOf(_ name: String, _ path: WritableKeyPath<Params, String> & Sendable, _ values: [String], _ doc: String) -> ParamField {
        required(name, path, schema: Schemas.oneOf(values), doc: doc) { value throws(RPCError) in
            guard values.contains(value) else {
                throw .invalidParams("'\(name)' must be one of \(values.joined(separator: ", "))", field: name)
            }
        }
    }

    /// A required integer in `range`, other than `excluded` if given. With `checkingUpperBound`
    /// false the schema still names the upper bound, but a larger value is left to the shop, whose
    /// error says more (a cart line's quantity: `InvalidQuantity`).
    static func integer(_ name: String, _ path: WritableKeyPath<Params, Int> & Sendable, _ range: ClosedRange<Int>, excluding excluded: Int? = nil,
                        checkingUpperBound: Bool = true, _ doc: String) -> ParamField {
        let schema = excluded.map { Schemas.integer(range, excluding: $0) } ?? Schemas.integer(range)
        return required(name, path, schema: schema, doc: doc) { value throws(RPCError) in
            try ParamChecks.integer(value, name, range, excluding: excluded, checkingUpperBound: checkingUpperBound)
        }
    }

    /// An optional integer in `range`.
    static func optionalInteger(_ name: String, _ path: WritableKeyPath<Params, Int?> & Sendable, _ range: ClosedRange<Int>, _ doc: String) -> ParamField {
        optional(name, path, schema: Schemas.integer(range), doc: doc) { value throws(RPCError) in
            try ParamChecks.integer(value, name, range, excluding: nil, checkingUpperBound: true)
        }
    }

    /// An optional integer of at least `minimum`.
    static func optionalInteger(_ name: String, _ path: WritableKeyPath<Params, Int?> & Sendable, atLeast minimum: Int, _ doc: String) -> ParamField {
        optional(name, path, schema: ["type": "integer", "minimum": .int(Int64(minimum))], doc: doc) { value throws(RPCError) in
            guard value >= minimum else { throw .invalidParams("'\(name)' must be at least \(minimum)", field: name) }
        }
    }

    /// A required array of `count` identifiers; `noun` names them in the error ("skus").
    static func identifiers(_ name: String, _ path: WritableKeyPath<Params, [String]> & Sendable, count: ClosedRange<Int>, noun: String,
                            _ doc: String) -> ParamField {
        array(name, path, count: count, noun: noun, itemSchema: Schemas.string, doc: doc, read: { $0.strings(name) }) { value, index throws(RPCError) in
            try ParamChecks.identifier(value, "\(name)[\(index)]")
        }
    }

    /// A required array of `count` objects, each as `itemSchema` says; `noun` names them in the
    /// error ("products") and `example` shows one ("{\"sku\": …}"). The objects' own members are
    /// the handler's to check.
    static func objects(_ name: String, _ path: WritableKeyPath<Params, [JSONValue]> & Sendable, count: ClosedRange<Int>, noun: String,
                        itemSchema: JSONValue, example: String, _ doc: String) -> ParamField {
        array(name, path, count: count, noun: noun, itemSchema: itemSchema, doc: doc, read: { $0.array(name) }) { value, index throws(RPCError) in
            guard case .object = value else {
                throw .invalidParams("'\(name)[\(index)]' must be an object such as \(example)", field: "\(name)[\(index)]")
            }
        }
    }
}

// MARK: - Building fields

extension ParamField {
    /// A required member of a type the members reader and `Decodable` both know.
    private static func required<Value: MemberValue>(
        _ name: String, _ path: WritableKeyPath<Params, Value> & Sendable, schema: JSONValue, doc: String,
        check: @escaping @Sendable (Value) throws(RPCError) -> Void
    ) -> ParamField {
        let member = StoredMember(path)
        return make(name, required: true, schema: schema, doc: doc,
                    read: { members, params in
                        guard let value = Value.read(name, from: members) else { return false }
                        member.set(&params, value)
                        return true
                    },
                    decode: { container, params in member.set(&params, try container.decode(Value.self, forKey: ParamKey(name))) },
                    validate: { params throws(RPCError) in try check(member.get(params)) })
    }

    /// An optional member (absent or null: nil), checked only when present.
    static func optional<Value: MemberValue>(
        _ name: String, _ path: WritableKeyPath<Params, Value?> & Sendable, schema: JSONValue, doc: String,
        check: @escaping @Sendable (Value) throws(RPCError) -> Void
    ) -> ParamField {
        let member = StoredMember(path)
        return make(name, required: false, schema: schema, doc: doc,
                    read: { members, params in
                        guard let value = Value.readOptional(name, from: members) else { return false }
                        member.set(&params, value)
                        return true
                    },
                    decode: { container, params in member.set(&params, try container.decodeIfPresent(Value.self, forKey: ParamKey(name))) },
                    validate: { params throws(RPCError) in
                        if let value = member.get(params) { try check(value) }
                    })
    }

    /// A required array of `count` elements, each checked by `checkElement` (with its index).
    static func array<Element: Decodable & Sendable>(
        _ name: String, _ path: WritableKeyPath<Params, [Element]> & Sendable, count: ClosedRange<Int>, noun: String, itemSchema: JSONValue,
        doc: String, read: @escaping @Sendable (ParamsMembers) -> [Element]?,
        checkElement: @escaping @Sendable (Element, Int) throws(RPCError) -> Void
    ) -> ParamField {
        let schema: JSONValue = ["type": "array", "items": itemSchema, "minItems": .int(Int64(count.lowerBound)),
                                 "maxItems": .int(Int64(count.upperBound))]
        let member = StoredMember(path)
        return make(name, required: true, schema: schema, doc: doc,
                    read: { members, params in
                        guard let values = read(members) else { return false }
                        member.set(&params, values)
                        return true
                    },
                    decode: { container, params in member.set(&params, try container.decode([Element].self, forKey: ParamKey(name))) },
                    validate: { params throws(RPCError) in
                        let values = member.get(params)
                        guard count.contains(values.count) else {
                            throw .invalidParams("'\(name)' must hold \(count.lowerBound) to \(count.upperBound) \(noun)", field: name)
                        }
                        for (index, value) in values.enumerated() { try checkElement(value, index) }
                    })
    }

    static func make(
        _ name: String, required: Bool, schema: JSONValue, doc: String,
        read: @escaping @Sendable (ParamsMembers, inout Params) -> Bool,
        decode: @escaping @Sendable (KeyedDecodingContainer<ParamKey>, inout Params) throws -> Void,
        validate: @escaping @Sendable (Params) throws(RPCError) -> Void
    ) -> ParamField {
        ParamField(name: name, required: required, schema: Schemas.describing(schema, doc), read: read, decode: decode, validate: validate)
    }
}

/// A member's value type as both readers know it: a string or an integer.
protocol MemberValue: Decodable, Sendable {
    /// The member's value if present with this type; nil otherwise.
    static func read(_ name: String, from members: ParamsMembers) -> Self?
    /// `.some(nil)` if absent or null, `.some(value)` if present with this type, nil otherwise.
    static func readOptional(_ name: String, from members: ParamsMembers) -> Self??
}

extension String: MemberValue {
    static func read(_ name: String, from members: ParamsMembers) -> String? { members.string(name) }
    static func readOptional(_ name: String, from members: ParamsMembers) -> String?? { members.optionalString(name) }
}

extension Bool: MemberValue {
    static func read(_ name: String, from members: ParamsMembers) -> Bool? { members.bool(name) }
    static func readOptional(_ name: String, from members: ParamsMembers) -> Bool?? { members.optionalBool(name) }
}

extension Int: MemberValue {
    static func read(_ name: String, from members: ParamsMembers) -> Int? { members.int(name) }
    static func readOptional(_ name: String, from members: ParamsMembers) -> Int?? { members.optionalInt(name) }
}
