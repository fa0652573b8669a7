import XCTest
@testable import RPCServer

/// The `FrameDecoder` facade: detection, and both framings through it. Per-framing edge cases are in
/// `NDJSONFrameDecoderTests` and `LSPFrameDecoderTests`.
final class FrameDecoderTests: XCTestCase {
    private func events(_ input: [UInt8], chunks: [Int], framing: Framing? = nil, max: Int = 1 << 20) -> [String] {
        FrameFeeder.events(input, chunks: chunks, framing: framing, max: max)
    }

    private let messages = [#"{"a":1}"#, #"{"b":"ü\n"}"#, #"[1,2,3]"#]

    func test_ndjson_byteByByte_and_randomChunks_giveTheSameMessages() {
        let input = Array((messages.joined(separator: "\r\n") + "\n\n   \n").utf8)
        XCTAssertEqual(events(input, chunks: [1]), messages)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let chunks = (0..<5).map { _ in Int.random(in: 1...9, using: &generator) }
            XCTAssertEqual(events(input, chunks: chunks), messages, "chunks \(chunks)")
        }
    }

    func test_ndjson_lastLineWithoutNewline_isTakenAtEnd() {
        XCTAssertEqual(events(Array("{\"a\":1}\n{\"b\":2}".utf8), chunks: [3]), [#"{"a":1}"#, #"{"b":2}"#])
    }

    func test_ndjson_garbledLine_doesNotSwallowTheNext() {
        // The framer passes the garbled line on as its own message; the next line is intact.
        let input = Array("{\"a\":\n{\"b\":2}\n".utf8)
        XCTAssertEqual(events(input, chunks: [1]), [#"{"a":"#, #"{"b":2}"#])
    }

    func test_ndjson_oversizedLine_isSkippedWithOneError_thenNextLineWorks() {
        let big = "{\"x\":\"" + String(repeating: "y", count: 5000) + "\"}"
        let input = Array((big + "\n{\"ok\":1}\n").utf8)
        XCTAssertEqual(events(input, chunks: [1], max: 100), ["error:MessageTooLarge", #"{"ok":1}"#])
        XCTAssertEqual(events(input, chunks: [100_000], max: 100), ["error:MessageTooLarge", #"{"ok":1}"#])
        XCTAssertEqual(events(input, chunks: [7, 300], max: 100), ["error:MessageTooLarge", #"{"ok":1}"#])
    }

    private func lsp(_ body: String, headers: String? = nil) -> String { FrameFeeder.lsp(body, headers: headers) }

    func test_lsp_byteByByte_and_randomChunks_giveTheSameMessages() {
        let input = Array((lsp(messages[0]) + lsp(messages[1], headers: "content-length: \(messages[1].utf8.count)\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n")
                           + lsp(messages[2], headers: "CONTENT-LENGTH:\(messages[2].utf8.count)\n")).utf8)
        XCTAssertEqual(events(input, chunks: [1]), messages)
        for _ in 0..<200 {
            let chunks = (0..<4).map { _ in Int.random(in: 1...13) }
            XCTAssertEqual(events(input, chunks: chunks), messages, "chunks \(chunks)")
        }
    }

    func test_lsp_malformedHeaders_areReported_andTheStreamResynchronises() {
        let cases = [
            "Content-Length: abc\r\n\r\n{}",
            "Content-Length: -5\r\n\r\n{}",
            "Content-Length: 99999999999999999999999999\r\n\r\n{}",
            "Content-Type: x\r\n\r\n{\"lost\":true}",
            "Content-Length 12\r\n\r\n{}",
        ]
        for bad in cases {
            let input = Array((bad + "\r\n" + lsp(#"{"ok":1}"#)).utf8)
            XCTAssertEqual(events(input, chunks: [1]), ["error:FramingError", #"{"ok":1}"#], bad)
            XCTAssertEqual(events(input, chunks: [4096]), ["error:FramingError", #"{"ok":1}"#], bad)
        }
    }

    func test_lsp_oversizedBody_isSkipped_thenNextMessageWorks() {
        let big = String(repeating: "z", count: 10_000)
        let input = Array((lsp(big) + lsp(#"{"ok":1}"#)).utf8)
        XCTAssertEqual(events(input, chunks: [1], max: 100), ["error:MessageTooLarge", #"{"ok":1}"#])
        XCTAssertEqual(events(input, chunks: [333], max: 100), ["error:MessageTooLarge", #"{"ok":1}"#])
    }

    func test_lsp_endlessHeader_isBounded() {
        let input = Array(("Content-Length: 5\r\nX-Junk: " + String(repeating: "j", count: 20_000) + "\r\n\r\n" + lsp(#"{"ok":1}"#)).utf8)
        XCTAssertEqual(events(input, chunks: [512]), ["error:FramingError", #"{"ok":1}"#])
    }

    func test_lsp_truncatedAtEnd_isReported() {
        XCTAssertEqual(events(Array("Content-Length: 50\r\n\r\n{\"a\":".utf8), chunks: [5]), ["error:FramingError"])
    }

    func test_autoDetection_usesTheFirstNonWhitespaceByte() {
        var decoder = FrameDecoder()
        decoder.append(Array("  \n".utf8))
        XCTAssertNil(decoder.next())
        XCTAssertNil(decoder.framing)
        decoder.append(Array("Content-Length: 2\r\n\r\n{}".utf8))
        XCTAssertEqual(decoder.next(), .message(ArraySlice(Array("{}".utf8))))
        XCTAssertEqual(decoder.framing, .lsp)
        var ndjson = FrameDecoder()
        ndjson.append(Array("{}\n".utf8))
        XCTAssertEqual(ndjson.next(), .message(ArraySlice(Array("{}".utf8))))
        XCTAssertEqual(ndjson.framing, .ndjson)
    }

    func test_bufferStaysBounded_overManyMessages() {
        var decoder = FrameDecoder(framing: .ndjson)
        let line = Array("{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1}\n".utf8)
        var count = 0
        for _ in 0..<50_000 {
            decoder.append(line)
            while decoder.next() != nil { count += 1 }
        }
        XCTAssertEqual(count, 50_000)
        XCTAssertEqual(decoder.bufferedByteCount, 0)
    }
    func test_largestMaxMessageBytes_doesNotOverflow() {
        assertEveryChunking("{}\n[1]", framing: .ndjson, max: Int.max, gives: ["{}", "[1]"])
        assertEveryChunking(lsp("{}") + lsp("[1]"), framing: .lsp, max: Int.max, gives: ["{}", "[1]"])
        assertEveryChunking("Content-Length: 9223372036854775807\r\n\r\n{}", framing: .lsp, max: Int.max,
                            gives: ["error:FramingError"])
    }
}
