/// Encodes `Encodable` values into a `JSONValue` tree (members in the order the type encodes
/// them), ready for `JSONWriter`. `nil` optionals encoded with `encodeIfPresent` are omitted, as
/// Foundation's `JSONEncoder` does. Stateless; any thread.
public struct JSONValueEncoder: Sendable {
    public init() {}

    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        if let json = value as? JSONValue { return json }
        let encoder = TreeEncoder(codingPath: [])
        try value.encode(to: encoder)
        return encoder.storage.value
    }
}

// MARK: - Storage

/// A node under construction. Containers hold references so nested containers can be filled later.
private final class Node {
    enum Kind {
        case empty
        case single(JSONValue)
        case object([(String, Node)])
        case array([Node])
    }

    var kind: Kind = .empty

    var value: JSONValue {
        switch kind {
        case .empty: return .object(JSONObject())
        case .single(let value): return value
        case .object(let members): return .object(JSONObject(members.map { JSONObject.Member(key: $0.0, value: $0.1.value) }))
        case .array(let elements): return .array(elements.map(\.value))
        }
    }

    func appendMember(_ key: String, _ node: Node) {
        if case .object(var members) = kind {
            kind = .empty
            if let existing = members.firstIndex(where: { $0.0 == key }) {
                members[existing].1 = node
            } else {
                members.append((key, node))
            }
            kind = .object(members)
        } else {
            kind = .object([(key, node)])
        }
    }

    func appendElement(_ node: Node) {
        if case .array(var elements) = kind {
            kind = .empty
            elements.append(node)
            kind = .array(elements)
        } else {
            kind = .array([node])
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

/// Encodes one value into a fresh node, using fast paths for scalars.
private func encodeNode<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> Node {
    let node = Node()
    if let json = value as? JSONValue {
        node.kind = .single(json)
        return node
    }
    let encoder = TreeEncoder(codingPath: codingPath)
    try value.encode(to: encoder)
    return encoder.storage
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
    func encode<T: Encodable>(_ value: T) throws { node.kind = try encodeNode(value, codingPath: codingPath).kind }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Node
    let codingPath: [any CodingKey]

    func encodeNil(forKey key: Key) { node.appendMember(key.stringValue, Node(single: .null)) }
    func encode(_ value: Bool, forKey key: Key) { node.appendMember(key.stringValue, Node(single: .bool(value))) }
    func encode(_ value: String, forKey key: Key) { node.appendMember(key.stringValue, Node(single: .string(value))) }
    func encode(_ value: Int, forKey key: Key) { node.appendMember(key.stringValue, Node(single: .int(Int64(value)))) }
    func encode(_ value: Int64, forKey key: Key) { node.appendMember(key.stringValue, Node(single: .int(value))) }
    func encode(_ value: Double, forKey key: Key) { node.appendMember(key.stringValue, Node(single: .double(value))) }

    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        node.appendMember(key.stringValue, try encodeNode(value, codingPath: codingPath + [key]))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = Node()
        child.kind = .object([])
        node.appendMember(key.stringValue, child)
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = Node()
        child.kind = .array([])
        node.appendMember(key.stringValue, child)
        return UnkeyedContainer(node: child, codingPath: codingPath + [key])
    }

    func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

    func superEncoder(forKey key: Key) -> any Encoder {
        let encoder = TreeEncoder(codingPath: codingPath + [key])
        node.appendMember(key.stringValue, encoder.storage)
        return encoder
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]

    var count: Int { if case .array(let elements) = node.kind { return elements.count } else { return 0 } }

    func encodeNil() { node.appendElement(Node(single: .null)) }
    func encode(_ value: String) { node.appendElement(Node(single: .string(value))) }
    func encode(_ value: Int) { node.appendElement(Node(single: .int(Int64(value)))) }

    func encode<T: Encodable>(_ value: T) throws { node.appendElement(try encodeNode(value, codingPath: codingPath)) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = Node()
        child.kind = .object([])
        node.appendElement(child)
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: codingPath))
    }

    func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = Node()
        child.kind = .array([])
        node.appendElement(child)
        return UnkeyedContainer(node: child, codingPath: codingPath)
    }

    func superEncoder() -> any Encoder {
        let encoder = TreeEncoder(codingPath: codingPath)
        node.appendElement(encoder.storage)
        return encoder
    }
}

extension Node {
    convenience init(single value: JSONValue) {
        self.init()
        kind = .single(value)
    }
}
