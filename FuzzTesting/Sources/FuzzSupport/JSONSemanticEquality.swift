@testable import RPCServer  // the engine's internals (FrameDecoder, JSONParser, RPCEngine) are package-only

/// JSON equality for round-trip checks, stricter than `JSONValue ==` where that is lenient and
/// looser only where JSON itself is: numbers compare by value (an integral double written as `3`
/// reads back as an integer), strings and keys compare byte for byte (Swift's `String ==` would
/// equate canonically equivalent but different UTF-8), object members compare in order (the
/// writer keeps the order), and a non-finite double equals `null` (the writer's documented form).
public func jsonSemanticallyEqual(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.double(let d), .null), (.null, .double(let d)): return !d.isFinite
    case (.bool(let a), .bool(let b)): return a == b
    case (.int(let a), .int(let b)): return a == b
    case (.double(let a), .double(let b)): return a == b
    case (.int(let i), .double(let d)), (.double(let d), .int(let i)):
        return Double(i) == d && (d >= 0x1p63 || d < -0x1p63 ? false : Int64(d) == i)
    case (.string(let a), .string(let b)): return a.utf8.elementsEqual(b.utf8)
    case (.array(let a), .array(let b)):
        return a.count == b.count && zip(a, b).allSatisfy { jsonSemanticallyEqual($0, $1) }
    case (.object(let a), .object(let b)):
        return a.members.count == b.members.count && zip(a.members, b.members).allSatisfy {
            $0.key.utf8.elementsEqual($1.key.utf8) && jsonSemanticallyEqual($0.value, $1.value)
        }
    default: return false
    }
}
