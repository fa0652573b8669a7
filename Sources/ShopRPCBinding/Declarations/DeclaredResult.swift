import RPCServer

/// A method's result, declared once as a list of fields (`ResultField`): its JSON Schema (titled
/// with `title`, the name clients give the type) and its JSON, written straight into the reply.
/// A conformer's `JSONWritable.write(to:)` is one line, `json.write(self, as: Self.self)`, since
/// the public conformance needs a public witness. Conformers are values; thread-safe.
protocol DeclaredResult: Sendable {
    /// The type's name in the schema (`title`) and in the generated clients.
    static var title: String { get }
    /// One sentence on what the object is.
    static var summary: String { get }
    /// The members, in the order they are written. A stored `static let`.
    static var fields: [ResultField<Self>] { get }
}

extension DeclaredResult {
    /// The object's JSON Schema: its title, summary and members, the always-present ones required.
    static var schema: JSONValue {
        var properties = JSONObject()
        for field in fields { properties.append(field.name.description, field.schema) }
        return ["title": .string(title), "description": .string(summary), "type": "object", "properties": .object(properties),
                "required": .array(fields.filter(\.required).map { .string($0.name.description) })]
    }
}

extension JSONOutput {
    /// Writes `result` as the object its declaration describes.
    mutating func write<Result: DeclaredResult>(_ result: Result, as type: Result.Type) {
        beginObject()
        Result.fields.withUnsafeBufferPointer { fields in
            for index in fields.indices { fields[index].write(result, &self) }
        }
        endObject()
    }
}
