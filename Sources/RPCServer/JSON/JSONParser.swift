/// A strict, single-pass RFC 8259 parser from bytes to `JSONValue`.
///
/// Hostile input is an error, never a trap: nesting is bounded by `maxDepth` (no unbounded
/// recursion), strings must be valid UTF-8 with no raw control characters, `\u` escapes may not
/// leave a lone surrogate, and numbers of any length are read (integers that do not fit in
/// `Int64` become `Double`). Each byte is looked at once. Stateless; safe to use from any thread.
package struct JSONParser {
    package static let defaultMaxDepth = 128

    /// Parses exactly one JSON text (surrounding whitespace allowed) from `bytes`.
    package static func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.index != bytes.count {
            throw JSONParseError("unexpected data after the JSON value", at: parser.index)
        }
        return value
    }

    /// The members of a JSON-RPC envelope: the last `jsonrpc`, `method`, `params` and `id` of an
    /// object (as `JSONObject`'s subscript resolves a repeated key), nil where absent.
    package struct EnvelopeMembers {
        package var jsonrpc: JSONValue?
        package var method: JSONValue?
        package var params: JSONValue?
        package var id: JSONValue?
    }

    /// Parses `bytes` as `parse` does when the text is one JSON object, but keeps only its envelope
    /// members, without building the object (its member array and key strings): the other members
    /// are parsed, so every error is the one `parse` throws, and dropped. Nil, having read nothing,
    /// when the text is not an object (or `maxDepth` is below 1): call `parse`.
    package static func parseEnvelope(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> EnvelopeMembers? {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        parser.skipWhitespace()
        guard maxDepth >= 1, !parser.atEnd, parser.current == UInt8(ascii: "{") else { return nil }
        let members = try parser.parseEnvelopeObject()
        parser.skipWhitespace()
        if parser.index != bytes.count {
            throw JSONParseError("unexpected data after the JSON value", at: parser.index)
        }
        return members
    }

    /// Convenience for tests and small inputs.
    package static func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        let array = Array(bytes)
        do {
            return try array.withUnsafeBytes { buffer in try parse(buffer, maxDepth: maxDepth) }
        } catch let error as JSONParseError {
            throw error
        } catch {
            fatalError("unreachable: parse throws only JSONParseError")
        }
    }

    // MARK: - State

    private let bytes: UnsafeRawBufferPointer
    private let maxDepth: Int
    private var index = 0

    private init(bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    private var atEnd: Bool { index >= bytes.count }
    private var current: UInt8 { bytes[index] }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    // MARK: - Values

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard !atEnd else { throw JSONParseError("unexpected end of input", at: index) }
        switch current {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw JSONParseError("unexpected character '\(Self.printable(current))'", at: index)
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = index
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw JSONParseError("invalid literal", at: start) }
        let expected = UnsafeRawBufferPointer(start: literal.utf8Start, count: count)
        for offset in 0..<count where bytes[index + offset] != expected[offset] {
            throw JSONParseError("invalid literal", at: start)
        }
        index += count
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maxDepth else { throw JSONParseError("nesting deeper than \(maxDepth) levels", at: index) }
        var members: [JSONObject.Member] = []
        try parseMembers(depth: depth, into: &members) { members, key, value in
            if members.isEmpty { members.reserveCapacity(4) }  // a request's envelope has 4 members: one allocation, not three
            members.append(JSONObject.Member(key: key, value: value))
        }
        return .object(JSONObject(members))
    }

    /// `parseObject` at depth 1 (the same steps and errors at the same places), keeping the
    /// envelope's members only.
    private mutating func parseEnvelopeObject() throws(JSONParseError) -> EnvelopeMembers {
        var members = EnvelopeMembers()
        try parseMembers(depth: 1, into: &members) { members, key, value in
            switch key {
            case "jsonrpc": members.jsonrpc = value
            case "method": members.method = value
            case "params": members.params = value
            case "id": members.id = value
            default: break
            }
        }
        return members
    }

    /// Parses the object whose `{` is at `index`, handing each member to `take` with `kept` in order (values
    /// parsed at `depth`), and leaves `index` past its `}`. The one member loop of both object
    /// parsers, so a request parsed into its envelope and any other object fail alike.
    @inline(__always)
    private mutating func parseMembers<Kept>(
        depth: Int, into kept: inout Kept, _ take: (inout Kept, String, JSONValue) -> Void
    ) throws(JSONParseError) {
        index += 1  // {
        skipWhitespace()
        if !atEnd, current == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            guard !atEnd, current == UInt8(ascii: "\"") else {
                throw JSONParseError(atEnd ? "unexpected end of input in object" : "expected a string key", at: index)
            }
            let key = try parseString()
            skipWhitespace()
            guard !atEnd, current == UInt8(ascii: ":") else { throw JSONParseError("expected ':' after key", at: index) }
            index += 1
            skipWhitespace()
            take(&kept, key, try parseValue(depth: depth))
            skipWhitespace()
            guard !atEnd else { throw JSONParseError("unexpected end of input in object", at: index) }
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return
            default: throw JSONParseError("expected ',' or '}' in object", at: index)
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maxDepth else { throw JSONParseError("nesting deeper than \(maxDepth) levels", at: index) }
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if !atEnd, current == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard !atEnd else { throw JSONParseError("unexpected end of input in array", at: index) }
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw JSONParseError("expected ',' or ']' in array", at: index)
            }
        }
    }

    // MARK: - Strings

    private mutating func parseString() throws(JSONParseError) -> String {
        let quote = index
        index += 1
        let start = index
        // Fast path: no escapes. Find the closing quote, rejecting raw control characters, and note
        // whether any byte is non-ASCII (only then does the UTF-8 need validating).
        var allBits: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                let string = allBits < 0x80 ? Self.envelopeString(raw) ?? Self.decodeASCII(raw) : try Self.decodeUTF8(raw, at: start)
                index += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw JSONParseError("unescaped control character in string", at: index) }
            allBits |= byte
            index += 1
        }
        guard index < bytes.count else { throw JSONParseError("unterminated string", at: quote) }
        // Slow path: copy what we have and unescape the rest.
        var buffer = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                let string = buffer.withUnsafeBytes { String(validating: $0.assumingMemoryBound(to: UInt8.self), as: UTF8.self) }
                guard let string else { throw JSONParseError("invalid UTF-8 in string", at: start) }
                return string
            case UInt8(ascii: "\\"):
                try parseEscape(into: &buffer)
            case 0..<0x20:
                throw JSONParseError("unescaped control character in string", at: index)
            default:
                buffer.append(byte)
                index += 1
            }
        }
        throw JSONParseError("unterminated string", at: quote)
    }

    private mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONParseError) {
        let escapeStart = index
        index += 1  // backslash
        guard index < bytes.count else { throw JSONParseError("unterminated escape", at: escapeStart) }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): buffer.append(0x22)
        case UInt8(ascii: "\\"): buffer.append(0x5C)
        case UInt8(ascii: "/"): buffer.append(0x2F)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = UInt32(try parseHex4())
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw JSONParseError("lone surrogate in \\u escape", at: escapeStart)
                }
                index += 2
                let low = UInt32(try parseHex4())
                guard (0xDC00...0xDFFF).contains(low) else { throw JSONParseError("lone surrogate in \\u escape", at: escapeStart) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw JSONParseError("lone surrogate in \\u escape", at: escapeStart)
            }
            // Valid by construction: not a surrogate, at most 0x10FFFF.
            buffer.append(contentsOf: Unicode.Scalar(scalar)!.utf8)
        default:
            throw JSONParseError("invalid escape '\\\(Self.printable(byte))'", at: escapeStart)
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt16 {
        guard bytes.count - index >= 4 else { throw JSONParseError("truncated \\u escape", at: index) }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONParseError("invalid hex digit in \\u escape", at: index)
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    /// The strings of the JSON-RPC envelope, which every message repeats ("jsonrpc", "2.0", "id",
    /// "method", "params"), as literals: no string is built for them. Nil for any other bytes.
    /// Compared a word at a time: each constant is the literal's bytes read as a little-endian integer.
    private static func envelopeString(_ raw: UnsafeRawBufferPointer) -> String? {
        guard let base = raw.baseAddress else { return nil }
        @inline(__always) func word32(_ offset: Int) -> UInt32 { UInt32(littleEndian: (base + offset).loadUnaligned(as: UInt32.self)) }
        @inline(__always) func word16(_ offset: Int) -> UInt16 { UInt16(littleEndian: (base + offset).loadUnaligned(as: UInt16.self)) }
        switch raw.count {
        case 2: return word16(0) == 0x6469 ? "id" : nil  // "id"
        case 3: return word16(0) == 0x2E32 && base.load(fromByteOffset: 2, as: UInt8.self) == 0x30 ? "2.0" : nil
        case 6:
            switch (word32(0), word16(4)) {
            case (0x6874_656D, 0x646F): return "method"  // "meth" "od"
            case (0x6172_6170, 0x736D): return "params"  // "para" "ms"
            default: return nil
            }
        case 7: return word32(0) == 0x6E6F_736A && word32(3) == 0x6370_726E ? "jsonrpc" : nil  // "json", "nrpc"
        default: return nil
        }
    }

    /// Bytes known to be ASCII, which is always valid UTF-8, so there is nothing to validate.
    private static func decodeASCII(_ raw: UnsafeRawBufferPointer) -> String {
        String(decoding: raw.assumingMemoryBound(to: UInt8.self), as: UTF8.self)
    }

    private static func decodeUTF8(_ raw: UnsafeRawBufferPointer, at offset: Int) throws(JSONParseError) -> String {
        guard let string = String(validating: raw.assumingMemoryBound(to: UInt8.self), as: UTF8.self) else {
            throw JSONParseError("invalid UTF-8 in string", at: offset)
        }
        return string
    }

    // MARK: - Numbers

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        var negative = false
        if current == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard !atEnd, Self.isDigit(current) else { throw JSONParseError("invalid number", at: start) }
        // Integer part; accumulate as negative so Int64.min fits.
        var accumulator: Int64 = 0
        var overflow = false
        if current == UInt8(ascii: "0") {
            index += 1
            if !atEnd, Self.isDigit(current) { throw JSONParseError("leading zero in number", at: start) }
        } else {
            while !atEnd, Self.isDigit(current) {
                if !overflow {
                    let (times10, o1) = accumulator.multipliedReportingOverflow(by: 10)
                    let (next, o2) = times10.subtractingReportingOverflow(Int64(current - UInt8(ascii: "0")))
                    if o1 || o2 { overflow = true } else { accumulator = next }
                }
                index += 1
            }
        }
        var isInteger = true
        if !atEnd, current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard !atEnd, Self.isDigit(current) else { throw JSONParseError("invalid fraction in number", at: start) }
            while !atEnd, Self.isDigit(current) { index += 1 }
        }
        if !atEnd, current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if !atEnd, current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard !atEnd, Self.isDigit(current) else { throw JSONParseError("invalid exponent in number", at: start) }
            while !atEnd, Self.isDigit(current) { index += 1 }
        }
        if isInteger, !overflow {
            if negative { return .int(accumulator) }
            if accumulator != .min { return .int(-accumulator) }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        return .double(Double(text) ?? (negative ? -.infinity : .infinity))
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func printable(_ byte: UInt8) -> String {
        (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
    }
}
