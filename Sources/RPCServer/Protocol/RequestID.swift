/// A JSON-RPC request id, echoed back exactly as received. `Hashable` so calls in flight can be
/// found by id (for cancellation and duplicate detection).
public enum RequestID: Hashable, Sendable, CustomStringConvertible {
    case string(String)
    case int(Int64)
    /// A non-integer numeric id (allowed by JSON-RPC, discouraged); echoed in shortest form.
    case double(Double)
    case null

    /// The id a JSON value denotes, or nil if it cannot be an id (objects, arrays, booleans, non-finite numbers).
    public init?(_ value: JSONValue) {
        switch value {
        case .string(let string): self = .string(string)
        case .int(let number): self = .int(number)
        case .double(let number) where number.isFinite: self = .double(number)
        case .null: self = .null
        default: return nil
        }
    }

    public var json: JSONValue {
        switch self {
        case .string(let string): return .string(string)
        case .int(let number): return .int(number)
        case .double(let number): return .double(number)
        case .null: return .null
        }
    }

    public var description: String { String(decoding: JSONWriter.encode(json), as: UTF8.self) }
}
