/// A JSON value as read off the wire or about to be written to it.
///
/// Objects keep their members in document order (so replies read the way their types declare
/// them); lookups scan from the end, so a duplicated key resolves to its last occurrence, as
/// RFC 8259 parsers commonly do. Immutable and `Sendable`: safe to share between queues.
///
/// Literals build it, which is how schemas are written:
/// ```swift
/// let schema: JSONValue = ["type": "object", "required": ["name"],
///                          "properties": ["name": ["type": "string"]]]
/// schema["required"]?.arrayValue?.count  // 1
/// ```
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// An integer literal that fits in 64 bits, kept exact (request ids must echo exactly).
    case int(Int64)
    /// Any other number. Non-finite values (from literals such as `1e999`) are written as `null`.
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// The members of a JSON object, in document order. Value semantics; `Sendable`.
///
/// ```swift
/// var details: JSONObject = ["sku": "COF-001"]
/// details.append("available", .int(3))
/// let error = RPCError(code: RPCErrorCode(1001), type: "OutOfStock", message: "Out of stock", details: details)
/// ```
public struct JSONObject: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// One `"key": value` pair.
    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: JSONValue
    }

    public private(set) var members: [Member]

    public init(_ members: [Member] = []) { self.members = members }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        members = elements.map { Member(key: $0.0, value: $0.1) }
    }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }

    /// The value of the last member named `key`, or nil. Setting appends or replaces it.
    public subscript(key: String) -> JSONValue? {
        get {
            var index = members.endIndex
            while index > members.startIndex {
                index -= 1
                if members[index].key == key { return members[index].value }
            }
            return nil
        }
        set {
            if let value = newValue {
                if let index = members.lastIndex(where: { $0.key == key }) {
                    members[index].value = value
                } else {
                    members.append(Member(key: key, value: value))
                }
            } else {
                members.removeAll { $0.key == key }
            }
        }
    }

    public mutating func append(_ key: String, _ value: JSONValue) {
        members.append(Member(key: key, value: value))
    }

    /// Order-insensitive, last-duplicate-wins comparison, as JSON's data model has it.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.dictionary == rhs.dictionary
    }

    /// The members as a dictionary (last duplicate wins).
    public var dictionary: [String: JSONValue] {
        Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }
}

// MARK: - Convenience accessors

extension JSONValue {
    public var objectValue: JSONObject? { if case .object(let o) = self { return o } else { return nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }

    /// The number as a Double, for integers and doubles alike.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    public subscript(key: String) -> JSONValue? { objectValue?[key] }

    /// A short name of the value's JSON type, for error messages ("string", "object", …).
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .int, .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByNilLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByFloatLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }
}
