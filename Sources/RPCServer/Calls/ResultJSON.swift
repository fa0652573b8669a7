/// A call's result on its way into its reply: a `JSONValue`, or the text a `JSONWritable` wrote
/// (exactly one compact JSON value, as `JSONOutput` checked). The text goes into the reply as it
/// is; only an MCP tool result, which carries the value twice, parses it. Immutable; any thread.
package enum ResultJSON: Sendable {
    case value(JSONValue)
    case text([UInt8])

    /// Appends the result's JSON text to `out`.
    func write(into out: inout [UInt8]) {
        switch self {
        case .value(let value): JSONWriter.write(value, into: &out)
        case .text(let text): out.append(contentsOf: text)
        }
    }

    /// The result as compact JSON text.
    var text: [UInt8] {
        switch self {
        case .value(let value): JSONWriter.encode(value)
        case .text(let text): text
        }
    }

    /// The result as a `JSONValue` (`null` for text that does not parse, which `JSONOutput` rules out).
    var jsonValue: JSONValue {
        switch self {
        case .value(let value): value
        case .text(let text): (try? JSONParser.parse(text)) ?? .null
        }
    }
}
