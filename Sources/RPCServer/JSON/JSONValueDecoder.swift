/// Decodes `Decodable` types straight from a `JSONValue`, so a message's params are parsed once
/// and never re-serialised. Numbers convert only when exact (`2.0` is an `Int`, `2.5` is not);
/// errors are `DecodingError`s whose coding path names the offending field. Stateless; any thread.
package struct JSONValueDecoder: Sendable {
    package init() {}

    package func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try T(from: ValueDecoder(value: value, codingPath: []))
    }
}

// MARK: - Decoder

private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw mismatch(JSONObject.self, "an object") }
        return KeyedDecodingContainer(KeyedContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([JSONValue].self, "an array") }
        return UnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValue(value: value, codingPath: codingPath) }

    func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
        DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.typeName)"))
    }
}

// MARK: - Scalars

private struct SingleValue: SingleValueDecodingContainer {
    let value: JSONValue
    /// The container's path; `key`, if any, is appended only when a path is needed (an error, or a
    /// nested decoder), which keeps a scalar member's decoding free of allocations.
    let parentPath: [any CodingKey]
    let key: (any CodingKey)?

    init(value: JSONValue, codingPath: [any CodingKey]) {
        self.value = value
        parentPath = codingPath
        key = nil
    }

    init(value: JSONValue, parentPath: [any CodingKey], key: any CodingKey) {
        self.value = value
        self.parentPath = parentPath
        self.key = key
    }

    var codingPath: [any CodingKey] { key.map { parentPath + [$0] } ?? parentPath }

    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(type, "a boolean") }
        return flag
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let string) = value else { throw mismatch(type, "a string") }
        return string
    }

    func decode(_ type: Double.Type) throws -> Double {
        guard let number = value.doubleValue else { throw mismatch(type, "a number") }
        return number
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

    func decode<T: BinaryInteger & FixedWidthInteger>(integer type: T.Type) throws -> T {
        switch value {
        case .int(let number):
            guard let exact = T(exactly: number) else { throw outOfRange(type) }
            return exact
        case .double(let number):
            guard let exact = T(exactly: number) else { throw number.rounded() == number ? outOfRange(type) : mismatch(type, "an integer") }
            return exact
        default:
            throw mismatch(type, "an integer")
        }
    }

    func decode(_ type: Int.Type) throws -> Int { try decode(integer: type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decode(integer: type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decode(integer: type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decode(integer: type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decode(integer: type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decode(integer: type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decode(integer: type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decode(integer: type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decode(integer: type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decode(integer: type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if type == JSONValue.self { return value as! T }
        return try T(from: ValueDecoder(value: value, codingPath: codingPath))
    }

    private func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
        DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.typeName)"))
    }

    private func outOfRange(_ type: Any.Type) -> DecodingError {
        DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "number out of range for \(type)"))
    }
}

// MARK: - Containers

/// Looks members up in the object itself (last duplicate wins): params objects are small, and
/// building a dictionary for a handful of lookups costs more than it saves.
private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let codingPath: [any CodingKey]

    var allKeys: [Key] {
        var seen = Set<String>()
        return object.members.compactMap { seen.insert($0.key).inserted ? Key(stringValue: $0.key) : nil }
    }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    private func value(for key: Key) throws -> JSONValue {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing member '\(key.stringValue)'"))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { (object[key.stringValue] ?? .null) == .null }

    private func member(_ key: Key) throws -> SingleValue {
        SingleValue(value: try value(for: key), parentPath: codingPath, key: key)
    }

    /// Optional members: absent or null decode as nil.
    private func presentMember(_ key: Key) -> SingleValue? {
        guard let value = object[key.stringValue], value != .null else { return nil }
        return SingleValue(value: value, parentPath: codingPath, key: key)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try member(key).decode(type) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try presentMember(key)?.decode(type) }

    // The common scalars go straight to the scalar decoders, not through `T(from:)`.
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try member(key).decode(type) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try member(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try member(key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try member(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try member(key).decode(type) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try presentMember(key)?.decode(type) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try presentMember(key)?.decode(type) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try presentMember(key)?.decode(type) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try presentMember(key)?.decode(type) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try presentMember(key)?.decode(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(value: try value(for: key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: try value(for: key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { ValueDecoder(value: .object(JSONObject()), codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder { ValueDecoder(value: try value(for: key), codingPath: codingPath + [key]) }
}

private struct IndexKey: CodingKey {
    let intValue: Int?
    let stringValue: String
    init(_ index: Int) { intValue = index; stringValue = "\(index)" }
    init?(intValue: Int) { self.init(intValue) }
    init?(stringValue: String) { return nil }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> (JSONValue, [any CodingKey]) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(JSONValue.self, .init(codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "too few elements"))
        }
        defer { currentIndex += 1 }
        return (elements[currentIndex], codingPath + [IndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next()
        return try SingleValue(value: value, codingPath: path).decode(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, path) = try next()
        return try ValueDecoder(value: value, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next()
        return try ValueDecoder(value: value, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next()
        return ValueDecoder(value: value, codingPath: path)
    }
}
