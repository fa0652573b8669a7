import RPCServer

// Kinds of members that search and listings filter and order by.

extension ParamField {
    /// An optional string that is one of `values`.
    static func optionalOneOf(_ name: String, _ path: WritableKeyPath<Params, String?> & Sendable, _ values: [String], _ doc: String) -> ParamField {
        optional(name, path, schema: Schemas.oneOf(values), doc: doc) { value throws(RPCError) in
            guard values.contains(value) else {
                throw .invalidParams("'\(name)' must be one of \(values.joined(separator: ", "))", field: name)
            }
        }
    }

    /// An optional Boolean.
    static func optionalBoolean(_ name: String, _ path: WritableKeyPath<Params, Bool?> & Sendable, _ doc: String) -> ParamField {
        optional(name, path, schema: ["type": "boolean"], doc: doc) { _ throws(RPCError) in }
    }

    /// An optional identifier, or a list of up to `maxCount` of them, kept as a list (empty when
    /// absent, null or `[]`, which a filter reads as "any"): `"category": "Tea"` and
    /// `"category": ["Tea", "Coffee"]`.
    static func identifierOrList(_ name: String, _ path: WritableKeyPath<Params, [String]> & Sendable, maxCount: Int, _ doc: String) -> ParamField {
        let schema: JSONValue = ["oneOf": [Schemas.string,
                                           ["type": "array", "items": Schemas.string, "maxItems": .int(Int64(maxCount))]]]
        let member = StoredMember(path)
        return make(name, required: false, schema: schema, doc: doc,
                    read: { members, params in
                        switch members.object[name] {
                        case nil, .null?: return true
                        case .string(let value)?: member.set(&params, [value])
                        default:
                            guard let values = members.strings(name) else { return false }
                            member.set(&params, values)
                        }
                        return true
                    },
                    decode: { container, params in
                        member.set(&params, try container.decodeIfPresent(IdentifierOrList.self, forKey: ParamKey(name))?.values ?? [])
                    },
                    validate: { params throws(RPCError) in
                        let values = member.get(params)
                        if values.count > maxCount {
                            throw .invalidParams("'\(name)' must be a string or a list of 1 to \(maxCount) strings", field: name)
                        }
                        for (index, value) in values.enumerated() {
                            try ParamChecks.identifier(value, values.count == 1 ? name : "\(name)[\(index)]")
                        }
                    })
    }

    /// An optional member of any `Decodable` shape `schema` describes, decoded by both readers the
    /// way `Decodable` does (absent or null: `empty`); its bounds are the params' to check
    /// (`DeclaredParams.validateTogether`).
    static func optionalDecodable<Value: Decodable & Sendable>(_ name: String, _ path: WritableKeyPath<Params, Value> & Sendable, empty: Value,
                                                               schema: JSONValue, _ doc: String) -> ParamField {
        let member = StoredMember(path)
        return make(name, required: false, schema: schema, doc: doc,
                    read: { members, params in
                        guard let value = members.object[name], value != .null else { return true }
                        guard let decoded = try? JSONValueDecoder().decode(Value.self, from: value) else { return false }
                        member.set(&params, decoded)
                        return true
                    },
                    decode: { container, params in member.set(&params, try container.decodeIfPresent(Value.self, forKey: ParamKey(name)) ?? empty) },
                    validate: { _ throws(RPCError) in })
    }

    /// An optional list of up to `values.count` members of `values` (empty when absent or null).
    static func optionalList(_ name: String, _ path: WritableKeyPath<Params, [String]> & Sendable, oneOf values: [String], _ doc: String) -> ParamField {
        let schema: JSONValue = ["type": "array", "items": Schemas.oneOf(values), "maxItems": .int(Int64(values.count)), "uniqueItems": true]
        let member = StoredMember(path)
        return make(name, required: false, schema: schema, doc: doc,
                    read: { members, params in
                        switch members.object[name] {
                        case nil, .null?: return true
                        default:
                            guard let list = members.strings(name) else { return false }
                            member.set(&params, list)
                            return true
                        }
                    },
                    decode: { container, params in member.set(&params, try container.decodeIfPresent([String].self, forKey: ParamKey(name)) ?? []) },
                    validate: { params throws(RPCError) in
                        let list = member.get(params)
                        for (index, value) in list.enumerated() where !values.contains(value) || list[..<index].contains(value) {
                            throw .invalidParams("'\(name)' must list distinct values among \(values.joined(separator: ", "))", field: "\(name)[\(index)]")
                        }
                    })
    }
}

/// A member that is a string or an array of strings, for `Decodable`'s path.
private struct IdentifierOrList: Decodable {
    let values: [String]

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(String.self) {
            values = [value]
        } else if let list = try? container.decode([String].self) {
            values = list
        } else {
            throw DecodingError.typeMismatch([String].self, .init(codingPath: decoder.codingPath,
                                                                  debugDescription: "expected a string or an array of strings"))
        }
    }
}
