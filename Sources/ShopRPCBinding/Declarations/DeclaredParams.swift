import RPCServer

/// A method's params, declared once as a list of fields (`ParamField`): a struct whose `init()`
/// gives every stored property a default, and whose `fields` write them. From the fields come its
/// JSON Schema (`schema`), its direct reading from parsed JSON (`init?(jsonValue:)`, the engine's
/// fast path), its `Decodable` conformance (the engine's fallback, whose errors name the member)
/// and its checks (`validate()`). Conformers are values; `Sendable`.
protocol DeclaredParams: JSONValueDecodable, Sendable {
    init()
    /// The members, in the order the schema lists them. A stored `static let`.
    static var fields: [ParamField<Self>] { get }
    /// Whether a member the fields do not name is refused (a -32602 naming it) instead of ignored:
    /// true for params that filter, where a misspelt or unsupported filter, silently ignored, would
    /// answer something the caller did not ask for. False unless a type says otherwise.
    static var rejectsUnknownMembers: Bool { get }
    /// Checks that span several members, after each member's own (`validate()`); none unless a
    /// type says otherwise.
    func validateTogether() throws(RPCError)
}

extension DeclaredParams {
    static var rejectsUnknownMembers: Bool { false }

    func validateTogether() throws(RPCError) {}

    /// Whether `name` is one of the fields'.
    static func declares(_ name: String) -> Bool {
        fields.contains { $0.name == name }
    }

    init?(jsonValue: JSONValue) {
        guard let members = ParamsMembers(jsonValue) else { return nil }
        // An unknown member is left to `init(from:)`, whose error names it.
        if Self.rejectsUnknownMembers, members.object.members.contains(where: { !Self.declares($0.key) }) { return nil }
        var params = Self()
        let read = Self.fields.withUnsafeBufferPointer { fields in
            for index in fields.indices where !fields[index].read(members, &params) { return false }
            return true
        }
        guard read else { return nil }
        self = params
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ParamKey.self)
        if Self.rejectsUnknownMembers, let unknown = container.allKeys.first(where: { !Self.declares($0.stringValue) }) {
            let names = Self.fields.map(\.name).joined(separator: ", ")
            throw DecodingError.dataCorrupted(.init(codingPath: [unknown], debugDescription: "unknown member (this method takes \(names))"))
        }
        var params = Self()
        for field in Self.fields { try field.decode(container, &params) }
        self = params
    }

    /// Every member's checks, in order: the first violation is a -32602 naming its member.
    func validate() throws(RPCError) {
        for index in Self.fields.indices { try Self.fields[index].validate(self) }
        try validateTogether()
    }

    /// The params' JSON Schema: an object of the fields, the required ones listed.
    static var schema: JSONValue {
        var properties = JSONObject()
        for field in fields { properties.append(field.name, field.schema) }
        return Schemas.params(properties, required: fields.filter(\.required).map(\.name), closed: rejectsUnknownMembers)
    }
}
