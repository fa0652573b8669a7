import RPCServer

/// One member of a result object, declared once: its JSON name, what it means, its JSON Schema and
/// how it is written. A result type lists its fields (`DeclaredResult.fields`), and its JSON
/// Schema and its direct JSON writing (`JSONWritable`) come from that list, in that order.
/// Immutable; `Sendable`. A class, so that writing a result touches one reference per field, not
/// each closure and schema a struct would copy.
final class ResultField<Result>: Sendable {
    /// The member's key, a `StaticString` as `JSONOutput` writes keys.
    let name: StaticString
    /// Whether every result has the member (the schema's `required`).
    let required: Bool
    /// The member's JSON Schema, its `description` included.
    let schema: JSONValue
    /// Writes the member (its key and value), or nothing when an optional member is absent.
    let write: @Sendable (Result, inout JSONOutput) -> Void

    init(name: StaticString, required: Bool, schema: JSONValue, write: @escaping @Sendable (Result, inout JSONOutput) -> Void) {
        self.name = name
        self.required = required
        self.schema = schema
        self.write = write
    }
}

// MARK: - Kinds of members

extension ResultField {
    static func string(_ name: StaticString, _ value: @escaping @Sendable (Result) -> String, _ doc: String,
                       schema: JSONValue = Schemas.string) -> ResultField {
        make(name, schema: schema, doc: doc) { result, json in json.member(name, value(result)) }
    }

    /// A string present only when `value` is not nil.
    static func optionalString(_ name: StaticString, _ value: @escaping @Sendable (Result) -> String?, _ doc: String,
                               schema: JSONValue = Schemas.string) -> ResultField {
        make(name, required: false, schema: schema, doc: doc) { result, json in json.member(name, ifPresent: value(result)) }
    }

    static func integer(_ name: StaticString, _ value: @escaping @Sendable (Result) -> Int, _ doc: String) -> ResultField {
        make(name, schema: ["type": "integer"], doc: doc) { result, json in json.member(name, value(result)) }
    }

    /// An integer present only when `value` is not nil.
    static func optionalInteger(_ name: StaticString, _ value: @escaping @Sendable (Result) -> Int?, _ doc: String) -> ResultField {
        make(name, required: false, schema: ["type": "integer"], doc: doc) { result, json in
            if let number = value(result) { json.member(name, number) }
        }
    }

    /// A boolean, always present.
    static func boolean(_ name: StaticString, _ value: @escaping @Sendable (Result) -> Bool, _ doc: String) -> ResultField {
        make(name, schema: ["type": "boolean"], doc: doc) { result, json in
            json.key(name)
            json.bool(value(result))
        }
    }

    /// An array of strings.
    static func strings(_ name: StaticString, _ value: @escaping @Sendable (Result) -> [String], _ doc: String) -> ResultField {
        make(name, schema: ["type": "array", "items": Schemas.string], doc: doc) { result, json in
            json.key(name)
            json.beginArray()
            for string in value(result) { json.string(string) }
            json.endArray()
        }
    }

    /// `true`, present only when `isSet` holds (a flag whose absence means false).
    static func flag(_ name: StaticString, _ isSet: @escaping @Sendable (Result) -> Bool, _ doc: String) -> ResultField {
        make(name, required: false, schema: ["type": "boolean"], doc: doc) { result, json in
            if isSet(result) {
                json.key(name)
                json.bool(true)
            }
        }
    }

    /// An array of declared results.
    static func array<Element: DeclaredResult & JSONWritable>(_ name: StaticString, _ value: @escaping @Sendable (Result) -> [Element],
                                                             _ doc: String) -> ResultField {
        make(name, schema: ["type": "array", "items": Element.schema], doc: doc) { result, json in json.member(name, array: value(result)) }
    }

    /// A declared result, as an object member.
    static func object<Member: DeclaredResult & JSONWritable>(_ name: StaticString, _ value: @escaping @Sendable (Result) -> Member,
                                                             _ doc: String) -> ResultField {
        make(name, schema: Member.schema, doc: doc) { result, json in
            json.key(name)
            value(result).write(to: &json)
        }
    }

    /// An array of arrays of strings.
    static func stringLists(_ name: StaticString, _ value: @escaping @Sendable (Result) -> [[String]], _ doc: String) -> ResultField {
        make(name, schema: ["type": "array", "items": ["type": "array", "items": Schemas.string]], doc: doc) { result, json in
            json.key(name)
            json.beginArray()
            for list in value(result) {
                json.beginArray()
                for string in list { json.string(string) }
                json.endArray()
            }
            json.endArray()
        }
    }

    /// An array of strings, present only when not nil.
    static func optionalStrings(_ name: StaticString, _ value: @escaping @Sendable (Result) -> [String]?, _ doc: String) -> ResultField {
        make(name, required: false, schema: ["type": "array", "items": Schemas.string], doc: doc) { result, json in
            guard let strings = value(result) else { return }
            json.key(name)
            json.beginArray()
            for string in strings { json.string(string) }
            json.endArray()
        }
    }

    /// An array of declared results, present only when not nil.
    static func optionalArray<Element: DeclaredResult & JSONWritable>(_ name: StaticString, _ value: @escaping @Sendable (Result) -> [Element]?,
                                                                     _ doc: String) -> ResultField {
        make(name, required: false, schema: ["type": "array", "items": Element.schema], doc: doc) { result, json in
            if let elements = value(result) { json.member(name, array: elements) }
        }
    }

    /// A declared result, as an object member present only when not nil.
    static func optionalObject<Member: DeclaredResult & JSONWritable>(_ name: StaticString, _ value: @escaping @Sendable (Result) -> Member?,
                                                                     _ doc: String) -> ResultField {
        make(name, required: false, schema: Member.schema, doc: doc) { result, json in
            guard let member = value(result) else { return }
            json.key(name)
            member.write(to: &json)
        }
    }

    private static func make(_ name: StaticString, required: Bool = true, schema: JSONValue, doc: String,
                             write: @escaping @Sendable (Result, inout JSONOutput) -> Void) -> ResultField {
        ResultField(name: name, required: required, schema: Schemas.describing(schema, doc), write: write)
    }
}
