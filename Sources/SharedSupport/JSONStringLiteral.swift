/// Writes a string as a JSON string literal (RFC 8259): in quotes, with `"` and `\` escaped and
/// control characters as `\n`, `\r`, `\t`, `\b`, `\f` or `\u00XX`; every other byte is copied as
/// the UTF-8 it is. The one escaper of the package: the engine's `JSONWriter` and the catalog's
/// NDJSON writer both call it. Stateless; any thread.
package enum JSONStringLiteral {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `string` as a JSON string literal. A native string lends its bytes as they are;
    /// only a bridged one is copied first.
    package static func append(_ string: String, to out: inout [UInt8]) {
        if string.utf8.withContiguousStorageIfAvailable({ append(utf8: $0, to: &out) }) == nil {
            var copy = string
            copy.withUTF8 { append(utf8: $0, to: &out) }
        }
    }

    /// Appends the UTF-8 text `utf8` as a JSON string literal: runs of bytes that need no escape
    /// are copied in one append each, and most strings are one run.
    package static func append(utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var runStart = 0
        var offset = 0
        while offset < utf8.count {
            // Eight bytes at a time while none of them needs an escape (`needsNoEscape`).
            if utf8.count - offset >= 8,
               needsNoEscape(UnsafeRawPointer(utf8.baseAddress! + offset).loadUnaligned(as: UInt64.self)) {
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

    /// `\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`, or `\u00XX` for the other control characters.
    private static func appendEscape(for byte: UInt8, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        default:
            out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                    hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
        }
    }
}
