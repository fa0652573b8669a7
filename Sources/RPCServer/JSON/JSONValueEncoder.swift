/// Encodes `Encodable` values into a `JSONValue` tree (members in the order the type encodes
/// them), ready for `JSONWriter`. `nil` optionals encoded with `encodeIfPresent` are omitted, as
/// Foundation's `JSONEncoder` does. Stateless; any thread.
package struct JSONValueEncoder: Sendable {
    package init() {}

    package func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        try encodeChild(value, codingPath: []).value
    }
}

// MARK: - Storage

/// A container under construction. Finished values are stored as they are; only nested containers,
/// which the caller may still fill after handing them out, are held by reference.
private final class Node {
    /// One member or element: a finished value, or a container still being filled.
    enum Child {
        case value(JSONValue)
        case node(Node)

        var value: JSONValue {
            switch self {
            case .value(let value): return value
            case .node(let node): return node.value
            }
        }
    }

    enum Kind {
        case empty
        case single(JSONValue)
        case object([(key: String, child: Child)])
        case array([Child])
    }

    var kind: Kind = .empty

    var value: JSONValue {
        switch kind {
        case .empty: return .object(JSONObject())
        case .single(let value): return value
        case .object(let members): return .object(JSONObject(members.map { JSONObject.Member(key: $0.key, value: $0.child.value) }))
        case .array(let elements): return .array(elements.map(\.value))
        }
    }

    /// Adds `key`, replacing an earlier member of the same name (as Foundation's encoder does).
    func appendMember(_ key: String, _ child: Child) {
        if case .object(var members) = kind {
            kind = .empty  // so `members` is uniquely referenced and appends in place
            if let existing = members.firstIndex(where: { $0.key == key }) {
                members[existing].child = child
            } else {
                members.append((key, child))
            }
            kind = .object(members)
        } else {
            kind = .object([(key, child)])
        }
    }

    func appendElement(_ child: Child) {
        if case .array(var elements) = kind {
            kind = .empty
            elements.append(child)
            kind = .array(elements)
        } else {
            kind = .array([child])
        }
    }
}

private final class TreeEncoder: Encoder {
    let codingPath: [any CodingKey]
    let storage = Node()
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(codingPath: [any CodingKey]) { self.codingPath = codingPath }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = storage.kind {} else { storage.kind = .object([]) }
        return KeyedEncodingContainer(KeyedContainer<Key>(node: storage, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = storage.kind {} else { storage.kind = .array([]) }
        return UnkeyedContainer(node: storage, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValue(node: storage, codingPath: codingPath) }
}

/// Encodes one value as a member or element: `JSONValue`s and `JSONValueConvertible`s as finished
/// values, anything else through a nested encoder.
private func encodeChild<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> Node.Child {
    if let convertible = value as? any JSONValueConvertible { return .value(convertible.jsonValue) }
    if T.self == JSONValue.self { return .value(value as! JSONValue) }
    let encoder = TreeEncoder(codingPath: codingPath)
    try value.encode(to: encoder)
    if case .single(let json) = encoder.storage.kind { return .value(json) }
    return .node(encoder.storage)
}

private struct SingleValue: SingleValueEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]

    func encodeNil() { node.kind = .single(.null) }
    func encode(_ value: Bool) { node.kind = .single(.bool(value)) }
    func encode(_ value: String) { node.kind = .single(.string(value)) }
    func encode(_ value: Double) { node.kind = .single(.double(value)) }
    func encode(_ value: Float) { node.kind = .single(.double(Double(value))) }
    func encode(_ value: Int) { node.kind = .single(.int(Int64(value))) }
    func encode(_ value: Int8) { node.kind = .single(.int(Int64(value))) }
    func encode(_ value: Int16) { node.kind = .single(.int(Int64(value))) }
    func encode(_ value: Int32) { node.kind = .single(.int(Int64(value))) }
    func encode(_ value: Int64) { node.kind = .single(.int(value)) }
    func encode(_ value: UInt) { node.kind = Int64(exactly: value).map { .single(.int($0)) } ?? .single(.double(Double(value))) }
    func encode(_ value: UInt8) { node.kind = .single(.int(Int64(value))) }
    func encode(_ value: UInt16) { node.kind = .single(.int(Int64(value))) }
    func encode(_ value: UInt32) { node.kind = .single(.int(Int64(value))) }
    func encode(_ value: UInt64) { node.kind = Int64(exactly: value).map { .single(.int($0)) } ?? .single(.double(Double(value))) }
    func encode<T: Encodable>(_ value: T) throws { node.kind = .single(try encodeChild(value, codingPath: codingPath).value) }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Node
    let codingPath: [any CodingKey]

    func encodeNil(forKey key: Key) { node.appendMember(key.stringValue, .value(.null)) }
    func encode(_ value: Bool, forKey key: Key) { node.appendMember(key.stringValue, .value(.bool(value))) }
    func encode(_ value: String, forKey key: Key) { node.appendMember(key.stringValue, .value(.string(value))) }
    func encode(_ value: Int, forKey key: Key) { node.appendMember(key.stringValue, .value(.int(Int64(value)))) }
    func encode(_ value: Int64, forKey key: Key) { node.appendMember(key.stringValue, .value(.int(value))) }
    func encode(_ value: Double, forKey key: Key) { node.appendMember(key.stringValue, .value(.double(value))) }

    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        node.appendMember(key.stringValue, try encodeChild(value, codingPath: codingPath + [key]))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = Node()
        child.kind = .object([])
        node.appendMember(key.stringValue, .node(child))
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = Node()
        child.kind = .array([])
        node.appendMember(key.stringValue, .node(child))
        return UnkeyedContainer(node: child, codingPath: codingPath + [key])
    }

    func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

    func superEncoder(forKey key: Key) -> any Encoder {
        let encoder = TreeEncoder(codingPath: codingPath + [key])
        node.appendMember(key.stringValue, .node(encoder.storage))
        return encoder
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]

    var count: Int { if case .array(let elements) = node.kind { return elements.count } else { return 0 } }

    func encodeNil() { node.appendElement(.value(.null)) }
    func encode(_ value: String) { node.appendElement(.value(.string(value))) }
    func encode(_ value: Int) { node.appendElement(.value(.int(Int64(value)))) }

    func encode<T: Encodable>(_ value: T) throws { node.appendElement(try encodeChild(value, codingPath: codingPath)) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = Node()
        child.kind = .object([])
        node.appendElement(.node(child))
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: codingPath))
    }

    func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = Node()
        child.kind = .array([])
        node.appendElement(.node(child))
        return UnkeyedContainer(node: child, codingPath: codingPath)
    }

    func superEncoder() -> any Encoder {
        let encoder = TreeEncoder(codingPath: codingPath)
        node.appendElement(.node(encoder.storage))
        return encoder
    }
}
