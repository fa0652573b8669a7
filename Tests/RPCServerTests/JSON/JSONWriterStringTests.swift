import XCTest
@testable import RPCServer

/// `JSONWriter.writeString` skips eight bytes at a time while none needs an escape; whatever the
/// position of a byte that does (inside a word, at its edges, in the tail), the output is the same
/// as escaping byte by byte.
final class JSONWriterStringTests: XCTestCase {
    /// The reference: one byte at a time, the escapes `writeString` documents.
    private static func escapedByteByByte(_ string: String) -> String {
        var out = Array("\"".utf8)
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += Array("\\\"".utf8)
            case UInt8(ascii: "\\"): out += Array("\\\\".utf8)
            case 0x0A: out += Array("\\n".utf8)
            case 0x0D: out += Array("\\r".utf8)
            case 0x09: out += Array("\\t".utf8)
            case 0x08: out += Array("\\b".utf8)
            case 0x0C: out += Array("\\f".utf8)
            case 0..<0x20: out += Array(("\\u00" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)).utf8)
            default: out.append(byte)
            }
        }
        return String(decoding: out + Array("\"".utf8), as: UTF8.self)
    }

    private static func written(_ string: String) -> String {
        var out: [UInt8] = []
        JSONWriter.writeString(string, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    func test_writeString_everyAsciiByteAtEveryPositionOfTwoWords_matchesByteByByteEscaping() {
        for length in [1, 7, 8, 9, 15, 16, 17, 23] {
            for position in 0..<length {
                for byte in UInt8(0)...UInt8(0x7F) {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[position] = byte
                    let string = String(decoding: bytes, as: UTF8.self)
                    XCTAssertEqual(Self.written(string), Self.escapedByteByByte(string), "byte \(byte) at \(position) of \(length)")
                }
            }
        }
    }

    func test_writeString_nonAsciiNextToEscapes_isCopiedAsIs() {
        for string in ["héllo wörld, ünïcode \"quoted\" ok", "€€€€€€€€\n€", "日本語のテキスト\\日本語", "🙂🙂🙂\u{1}🙂🙂", "\u{7F}\u{7F}\u{7F}\u{7F}\u{7F}\u{7F}\u{7F}\u{7F}\u{1F}"] {
            XCTAssertEqual(Self.written(string), Self.escapedByteByByte(string), string)
        }
    }
}
