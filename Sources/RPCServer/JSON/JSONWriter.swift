/// Serialises `JSONValue` to compact UTF-8 JSON, appending to a byte buffer.
///
/// Output never contains a raw newline (control characters are escaped), so one value is always
/// one NDJSON line. Non-finite doubles are written as `null`. Stateless; any thread.
package enum JSONWriter {
    package static func write(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .null: append("null", to: &out)
        case .bool(let flag): append(flag ? "true" : "false", to: &out)
        case .int(let number): writeInteger(number, into: &out)
        case .double(let number): writeDouble(number, into: &out)
        case .string(let string): writeString(string, into: &out)
        case .array(let elements):
            var separator = UInt8(ascii: "[")
            for element in elements {
                out.append(separator)
                separator = UInt8(ascii: ",")
                write(element, into: &out)
            }
            if elements.isEmpty { out.append(separator) }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            var separator = UInt8(ascii: "{")
            for member in object.members {
                out.append(separator)
                separator = UInt8(ascii: ",")
                writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(member.value, into: &out)
            }
            if object.members.isEmpty { out.append(separator) }
            out.append(UInt8(ascii: "}"))
        }
    }

    package static func encode(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(value, into: &out)
        return out
    }

    package static func writeInteger(_ number: Int64, into out: inout [UInt8]) {
        if number < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        // Digits from the right into a 20-byte scratch (UInt64.max has 20), then one append.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
            var start = scratch.count
            repeat {
                start -= 1
                scratch[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[start...]))
        }
    }

    package static func writeDouble(_ number: Double, into out: inout [UInt8]) {
        guard number.isFinite else { return append("null", to: &out) }
        if number == number.rounded(), abs(number) < 1e15 {
            writeInteger(Int64(number), into: &out)
        } else {
            out.append(contentsOf: "\(number)".utf8)  // shortest round-trip form
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    package static func writeString(_ string: String, into out: inout [UInt8]) {
        // A native string lends its bytes as they are; only a bridged one is copied first.
        if string.utf8.withContiguousStorageIfAvailable({ writeQuoted($0, into: &out) }) == nil {
            var copy = string
            copy.withUTF8 { writeQuoted($0, into: &out) }
        }
    }

    /// A `StaticString` (an object key of a `JSONOutput`), escaped as any string is.
    package static func writeString(_ string: StaticString, into out: inout [UInt8]) {
        string.withUTF8Buffer { writeQuoted($0, into: &out) }
    }

    /// `utf8` in quotes, with the bytes that need it escaped: runs of bytes that need no escape are
    /// copied in one append each, and most strings are one run.
    private static func writeQuoted(_ utf8: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var runStart = 0
        var offset = 0
        while offset < utf8.count {
            // Eight bytes at a time while none of them needs an escape (`needsNoEscape`).
            if utf8.count - offset >= 8,
               Self.needsNoEscape(UnsafeRawPointer(utf8.baseAddress! + offset).loadUnaligned(as: UInt64.self)) {
                offset += 8
                continue
            }
            let byte = utf8[offset]
            if byte >= 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                offset += 1
                continue
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<offset]))
            appendEscape(for: byte, to: &out)
            offset += 1
            runStart = offset
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        out.append(UInt8(ascii: "\""))
    }

    /// Whether none of the eight bytes in `word` needs an escape: none is a control character
    /// (below 0x20), a quote or a backslash. Exact, not a heuristic: `(v - 0x01…01) & ~v & 0x80…80`
    /// is non-zero exactly when some byte of `v` is zero, and `(w - 0x20…20) & ~w & 0x80…80`
    /// exactly when some byte of `w` is below 0x20 (bytes from 0x80 up, UTF-8, never count). Byte
    /// order does not matter: each test looks for any byte, not for which one.
    @inline(__always)
    private static func needsNoEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let control = (word &- ones &* 0x20) & ~word
        let quote = (quotes &- ones) & ~quotes
        let backslash = (backslashes &- ones) & ~backslashes
        return (control | quote | backslash) & highBits == 0
    }

    /// `\"`, `\\`, `\n`, `\r`, `\t`, or `\u00XX` for the other control characters.
    private static func appendEscape(for byte: UInt8, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        default:
            out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                    hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
        }
    }

    @inline(__always)
    static func append(_ literal: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
}
