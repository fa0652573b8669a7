/// How many members the JSON object on one NDJSON line has, counting its top-level `:` outside
/// strings: one pass over the bytes, no parsing. Meaningful only for a line `JSONDecoder` accepts
/// as an object; the reader uses it to learn, without asking the decoder for every key (its
/// costliest step), that a line has no member besides the columns it decoded, and to notice a
/// member given twice (which the decoder's container shows only once).
enum JSONMemberCount {
    static func topLevelMembers(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var depth = 0
        var inString = false
        var escaped = false
        var count = 0
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ":") where depth == 1: count += 1
            default: break
            }
        }
        return count
    }
}
