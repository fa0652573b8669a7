/// A JSON-RPC request id, echoed back as received: strings exactly, numbers with the same value.
///
/// **When two ids are the same** (for duplicate checks and cancellation; protocol.md, section 2):
/// strings when their characters are equal; numbers when their values are equal, so `1`, `1.0`
/// and `1e0` are one id, and so are `0` and `-0.0`; a string is never the same id as a number.
/// Numbers must lie strictly between -2^63 and 2^63 (`MessageDecoder` rejects the rest, -2^63 itself
/// in every spelling), so every integer id is exact; non-integer ids are compared as IEEE doubles.
///
/// ```swift
/// .async("work.run", params: NoParams.self) { _, context in
///     Log.debug("\(context.method) id \(context.id?.description ?? "none (notification)")")
///     return EmptyResult()
/// }
/// ```
public enum RequestID: Sendable, CustomStringConvertible {
    case string(String)
    case int(Int64)
    /// A non-integer numeric id (allowed by JSON-RPC, discouraged); echoed in shortest form.
    case double(Double)
    case null

    /// The id a JSON value denotes, or nil if it cannot be an id (objects, arrays, booleans,
    /// numbers not strictly between -2^63 and 2^63).
    package init?(_ value: JSONValue) {
        switch value {
        case .string(let string): self = .string(string)
        // -2^63 fits an Int64, but its other spellings (-9.223372036854775808e18, and
        // -9223372036854775809, which the parser can only read as a double that rounds to -2^63)
        // cannot be told apart from it: one rule for all of them keeps "strictly between" true.
        case .int(let number) where number != .min: self = .int(number)
        case .double(let number) where Self.isInRange(number): self = .double(number)
        case .null: self = .null
        default: return nil
        }
    }

    /// Whether a number that did not parse as an `Int64` may be an id: finite and of magnitude
    /// below 2^63 (from there on, integers would no longer come back exactly).
    static func isInRange(_ number: Double) -> Bool {
        number.isFinite && number.magnitude < 0x1p63
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

    /// The integer a numeric id denotes exactly, if it denotes one.
    private var integerValue: Int64? {
        switch self {
        case .int(let number): return number
        case .double(let number): return Int64(exactly: number)
        default: return nil
        }
    }
}

// MARK: - Hashable (same value, same id)

extension RequestID: Hashable {
    public static func == (lhs: RequestID, rhs: RequestID) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): return a == b
        case (.null, .null): return true
        case (.double(let a), .double(let b)): return a == b  // -0.0 == 0.0
        case (.int, .int), (.int, .double), (.double, .int):
            guard let a = lhs.integerValue, let b = rhs.integerValue else { return false }
            return a == b
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let string):
            hasher.combine(0 as UInt8)
            hasher.combine(string)
        case .int, .double:
            hasher.combine(1 as UInt8)
            if let integer = integerValue {
                hasher.combine(integer)
            } else if case .double(let number) = self {
                hasher.combine(number)
            }
        case .null:
            hasher.combine(2 as UInt8)
        }
    }
}
