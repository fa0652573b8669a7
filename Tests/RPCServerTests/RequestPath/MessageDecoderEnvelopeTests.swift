import XCTest
@testable import RPCServer

/// `MessageDecoder.decode` reads a single request object straight into its envelope members
/// (`JSONParser.parseEnvelope`) instead of building the object: the message it returns, and every
/// parse error (its text and position), must be what parsing the whole value and classifying it
/// gives. Compared on hand-picked messages and on each of them cut short and with a byte changed.
final class MessageDecoderEnvelopeTests: XCTestCase {
    /// The decoding without the envelope path: parse, then classify.
    private func generic(_ bytes: [UInt8], maxDepth: Int) -> IncomingMessage {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, maxDepth: maxDepth)
        } catch {
            return .single(.invalid(.parseError(error), id: nil))
        }
        if case .array(let elements) = value {
            return elements.isEmpty ? .single(.invalid(.invalidRequest("empty batch"), id: nil)) : .batch(elements.map(MessageDecoder.classify))
        }
        return .single(MessageDecoder.classify(value))
    }

    private func assertSame(_ bytes: [UInt8], maxDepth: Int = JSONParser.defaultMaxDepth, file: StaticString = #filePath, line: UInt = #line) {
        let fast = bytes.withUnsafeBytes { MessageDecoder.decode($0, maxDepth: maxDepth) }
        XCTAssertEqual(String(describing: fast), String(describing: generic(bytes, maxDepth: maxDepth)),
                       String(decoding: bytes, as: UTF8.self), file: file, line: line)
    }

    private let messages = [
        #"{"jsonrpc":"2.0","id":1,"method":"catalog.get","params":{"sku":"SKU-0002"}}"#,
        #"  {"method":"m","jsonrpc":"2.0","params":[1,{"a":[true,false,null]}],"id":"x"}  "#,
        #"{"jsonrpc":"2.0","method":"note"}"#,
        #"{"jsonrpc":"2.0","id":1,"id":2,"method":"a","method":"b"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"a","params":null}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"a","params":5}"#,
        #"{"jsonrpc":"2.0","id":1.5e3,"method":"a"}"#,
        #"{"jsonrpc":"2.0","id":-9223372036854775808,"method":"a"}"#,
        #"{"jsonrpc":"2.0","id":[1],"method":"a"}"#,
        #"{"jsonrpc":"1.0","id":1,"method":"a"}"#,
        #"{"\u006aspnrpc":"2.0","\u006dethod":"a","\u0069d":3}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"a","other":{"deep":[[[[1]]]]},"x":"\u00e9\ud83d\ude00"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":7}"#,
        #"{"jsonrpc":"2.0","id":1}"#,
        #"{}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"a"} x"#,
        #"{"jsonrpc":"2.0","id":1,"method":"a",}"#,
        #"{"jsonrpc":"2.0" "id":1}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"a"]"#,
        #"{"jsonrpc":"2.0","id":01,"method":"a"}"#,
        #"{"jsonrpc":"2.0","id":"a\u0001b","method":"a"}"#,
        "{\"jsonrpc\":\"2.0\",\"id\":\"a\u{1}b\",\"method\":\"a\"}",
        #"[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"n"},3]"#,
        #"[]"#,
        #""just a string""#,
        "",
        "{",
    ]

    func test_singleRequests_decodeAsParsingTheWholeValueWould() {
        for message in messages { assertSame(Array(message.utf8)) }
    }

    func test_truncatedAndMutatedMessages_failOrDecodeTheSameWay() {
        let replacements = Array(#"{}[]",:\0a1-. "#.utf8)
        for message in messages {
            let bytes = Array(message.utf8)
            for end in 0..<bytes.count { assertSame(Array(bytes[..<end])) }
            for position in bytes.indices {
                for replacement in replacements where bytes[position] != replacement {
                    var mutated = bytes
                    mutated[position] = replacement
                    assertSame(mutated)
                }
            }
        }
    }

    func test_nestingLimits_areTheSame() {
        let nested = #"{"jsonrpc":"2.0","id":1,"method":"a","params":{"a":{"b":{"c":[1]}}}}"#
        for depth in 0...6 { assertSame(Array(nested.utf8), maxDepth: depth) }
    }
}
