import XCTest
@testable import RPCServer

/// LSP (`Content-Length`) framing, fed through `FrameDecoder` with every standard chunking.
final class LSPFrameDecoderTests: XCTestCase {
    private func lsp(_ body: String, headers: String? = nil) -> String { FrameFeeder.lsp(body, headers: headers) }
    private let ok = #"{"ok":1}"#
    private let limit = FrameDecoder.maxHeaderBytes

    // MARK: - Header block limit

    func test_lspHeaderBlock_manyShortLinesOverLimitInOneRead_isReportedOnce_thenResynchronises() {
        let lines = String(repeating: "X-Filler: abcdef\r\n", count: limit / 10)
        let input = lsp(#"{"lost":1}"#, headers: "Content-Length: 10\r\n" + lines) + lsp(ok) + lsp("{}")
        assertEveryChunking(input, framing: .lsp, gives: ["error:FramingError", ok, "{}"])
        assertEveryChunking(input, gives: ["error:FramingError", ok, "{}"])
    }

    func test_lspHeaderBlock_oneLongLineOverLimitInOneRead_isReportedOnce_thenResynchronises() {
        let input = lsp(#"{"lost":1}"#, headers: "Content-Length: 10\r\nX-Junk: " + String(repeating: "j", count: 20_000) + "\r\n")
            + lsp(ok)
        assertEveryChunking(input, framing: .lsp, gives: ["error:FramingError", ok])
    }

    func test_lspHeaderBlock_exactlyAtLimit_isAccepted_andOneByteMore_isRejected() {
        // The header block counts every byte from its first header byte through the blank line's LF.
        func block(totalBytes: Int) -> String {
            let fixed = "Content-Length: 2\r\n" + "X-Pad: " + "\r\n" + "\r\n"
            return "Content-Length: 2\r\nX-Pad: " + String(repeating: "p", count: totalBytes - fixed.utf8.count) + "\r\n"
        }
        XCTAssertEqual((block(totalBytes: limit) + "\r\n").utf8.count, limit)
        assertEveryChunking(lsp("{}", headers: block(totalBytes: limit)) + lsp(ok), framing: .lsp, gives: ["{}", ok])
        assertEveryChunking(lsp("{}", headers: block(totalBytes: limit + 1)) + lsp(ok), framing: .lsp,
                            gives: ["error:FramingError", ok])
    }

    func test_lspHeaderBlock_endlessHeaderLine_isBounded() {
        var decoder = FrameDecoder(framing: .lsp)
        decoder.append(Array("Content-Length: 5\r\nX-Junk: ".utf8))
        var errors = 0
        let junk = [UInt8](repeating: UInt8(ascii: "j"), count: 4096)
        for _ in 0..<256 {
            decoder.append(junk)
            while let event = decoder.next() {
                XCTAssertEqual(FrameFeeder.describe(event), "error:FramingError")
                errors += 1
            }
            XCTAssertLessThanOrEqual(decoder.bufferedByteCount, limit + junk.count)
        }
        XCTAssertEqual(errors, 1)
        decoder.append(Array(("\r\n\r\n" + lsp(ok)).utf8))
        XCTAssertEqual(decoder.next(), .message(ArraySlice(ok.utf8)))
    }

    // MARK: - Resynchronisation

    func test_lspResync_afterBadHeaderBlock_findsTheFrameThatFollowsItsBodyWithoutNewline() {
        // The bad block's body ends without a newline, so the next header does not start a line.
        let input = "Bad-Header\r\n\r\n{\"lost\":1}" + lsp(ok) + lsp("[1]") + lsp("[2]")
        assertEveryChunking(input, framing: .lsp, gives: ["error:FramingError", ok, "[1]", "[2]"])
        // Auto-detected as LSP (first byte `C`); a block without Content-Length is the bad header.
        let detected = "Content-Type: x\r\n\r\n{\"lost\":1}" + lsp(ok) + lsp("[1]") + lsp("[2]")
        assertEveryChunking(detected, gives: ["error:FramingError", ok, "[1]", "[2]"])
    }

    func test_lspResync_afterBadHeaderBlockWithoutBody_keepsTheFramesThatFollow() {
        let input = "Bad-Header\r\n\r\n" + lsp(ok) + lsp("[1]") + lsp("[2]")
        assertEveryChunking(input, framing: .lsp, gives: ["error:FramingError", ok, "[1]", "[2]"])
    }

    func test_lspResync_afterEachKindOfBadHeader_keepsEveryLaterFrame() {
        let bad = [
            "Content-Length: abc\r\n\r\n{}",
            "Content-Length: -5\r\n\r\n{}",
            "Content-Length: 99999999999999999999999999\r\n\r\n{}",
            "Content-Type: x\r\n\r\n{\"lost\":true}",
            "Content-Length 12\r\n\r\n{}",
            "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
        ]
        for header in bad {
            assertEveryChunking(header + lsp(ok) + lsp("[1]"), framing: .lsp, gives: ["error:FramingError", ok, "[1]"])
        }
    }

    func test_lspResync_matchesContentLengthAnywhere_caseInsensitively_evenAfterAPartialMatch() {
        let input = "Bad\r\n\r\njunk without newline ContentContent-Lencontent-LENGTH: 2\r\n\r\n{}" + lsp(ok)
        assertEveryChunking(input, framing: .lsp, gives: ["error:FramingError", "{}", ok])
    }

    func test_lspResync_keepsOnlyAPossiblePartialMatch_whileSkippingJunk() {
        var decoder = FrameDecoder(framing: .lsp)
        decoder.append(Array("Bad\r\n\r\n".utf8))
        XCTAssertEqual(decoder.next().map(FrameFeeder.describe), "error:FramingError")
        let junk = [UInt8](repeating: UInt8(ascii: "x"), count: 4096)
        for _ in 0..<64 {
            decoder.append(junk)
            XCTAssertNil(decoder.next())
            XCTAssertEqual(decoder.bufferedByteCount, 0)
        }
        decoder.append(Array("xxCONTENT-len".utf8))
        XCTAssertNil(decoder.next())
        XCTAssertEqual(decoder.bufferedByteCount, "CONTENT-len".utf8.count)
        decoder.append(Array("gth: 2\r\n\r\n{}".utf8))
        XCTAssertEqual(decoder.next(), .message(ArraySlice("{}".utf8)))
    }

    // MARK: - Content-Length values

    func test_lspContentLength_acceptsDigitsWithOptionalSpacesAndLeadingZeros() {
        for value in ["2", " 2", "2 ", "\t2\t", "  002", "00000000000000000002"] {
            assertEveryChunking(lsp("{}", headers: "Content-Length:\(value)\r\n") + lsp(ok), framing: .lsp, gives: ["{}", ok])
        }
    }

    func test_lspContentLength_rejectsSignsEmptyInnerSpacesAndOverflow_withOneFramingError() {
        let values = ["", " ", "+2", "-1", "2 2", "0x2", "2.0", "２", "18446744073709551616", "99999999999999999999",
                      "9223372036854775808"]
        for value in values {
            assertEveryChunking(lsp("{}", headers: "Content-Length:\(value)\r\n") + lsp(ok), framing: .lsp,
                                gives: ["error:FramingError", ok])
        }
    }

    func test_lspContentLength_largestIntValue_isTooLarge_notATrap() {
        assertEveryChunking(lsp("{}", headers: "Content-Length: 9223372036854775807\r\n") + lsp(ok), framing: .lsp,
                            gives: ["error:MessageTooLarge"])
    }

    func test_lspContentLength_repeatedWithTheSameValue_isAccepted() {
        assertEveryChunking(lsp("{}", headers: "Content-Length: 2\r\ncontent-length: 002\r\n") + lsp(ok), framing: .lsp,
                            gives: ["{}", ok])
    }

    func test_lspContentLength_conflictingValues_areOneFramingError() {
        assertEveryChunking(lsp("{}", headers: "Content-Length: 2\r\nContent-Length: 3\r\n") + lsp(ok), framing: .lsp,
                            gives: ["error:FramingError", ok])
    }

    func test_lspContentLength_zero_givesAnEmptyMessage() {
        assertEveryChunking(lsp("", headers: "Content-Length: 0\r\n") + lsp(ok), framing: .lsp, gives: ["", ok])
    }

    func test_lspBody_exactlyMaxBytes_isAccepted_andOneMore_isTooLarge() {
        let max = 50
        let exact = "\"" + String(repeating: "e", count: max - 2) + "\""
        let over = "\"" + String(repeating: "o", count: max - 1) + "\""
        assertEveryChunking(lsp(exact) + lsp(ok), framing: .lsp, max: max, gives: [exact, ok])
        assertEveryChunking(lsp(over) + lsp(ok), framing: .lsp, max: max, gives: ["error:MessageTooLarge", ok])
    }

    // MARK: - Line endings and whitespace

    func test_lspHeaders_acceptCRLFAndBareLF_inAnyMix() {
        let input = lsp("[1]", headers: "Content-Length: 3\n") + lsp("[2]", headers: "Content-Length: 3\r\nX-A: b\n")
            + "Content-Length: 3\n\r\n[3]"
        assertEveryChunking(input, framing: .lsp, gives: ["[1]", "[2]", "[3]"])
    }

    func test_lspWhitespace_beforeTheFirstFrameAndBetweenFrames_isSkipped() {
        let input = "\r\n \t\n" + lsp(ok) + "\r\n" + lsp("[1]") + "\n\n  " + lsp("[2]") + "\r\n"
        assertEveryChunking(input, framing: .lsp, gives: [ok, "[1]", "[2]"])
        assertEveryChunking(input, gives: [ok, "[1]", "[2]"])
    }

    // MARK: - End of input

    func test_lspEndOfInput_inEachState() {
        // Between frames (nothing or only whitespace left): nothing to report.
        assertEveryChunking(lsp(ok), framing: .lsp, gives: [ok])
        assertEveryChunking(lsp(ok) + "\r\n", framing: .lsp, gives: [ok])
        // Inside a header block, or right after it: the message is truncated.
        assertEveryChunking(lsp(ok) + "Content-Len", framing: .lsp, gives: [ok, "error:FramingError"])
        assertEveryChunking(lsp(ok) + "Content-Length: 5\r\n", framing: .lsp, gives: [ok, "error:FramingError"])
        assertEveryChunking(lsp(ok) + "Content-Length: 5\r\n\r\n", framing: .lsp, gives: [ok, "error:FramingError"])
        // Inside a body.
        assertEveryChunking("Content-Length: 50\r\n\r\n{\"a\":", framing: .lsp, gives: ["error:FramingError"])
        // Inside an oversized body that is being skipped, or while resynchronising: already reported once.
        assertEveryChunking("Content-Length: 500\r\n\r\n{\"a\":", framing: .lsp, max: 100, gives: ["error:MessageTooLarge"])
        assertEveryChunking("Bad\r\n\r\n{\"a\":1} Content-Le", framing: .lsp, gives: ["error:FramingError"])
    }

    // MARK: - Random chunkings

    func test_lspLongValidStream_randomChunkings_giveExactlyTheFramesBack() {
        var generator = SystemRandomNumberGenerator()
        var input = ""
        var expected: [String] = []
        let headerStyles: [(Int) -> String] = [
            { "Content-Length: \($0)\r\n" },
            { "content-length:\($0)\n" },
            { "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nCONTENT-LENGTH: \($0)\r\n" },
            { "Content-Length: 000\($0)\r\nContent-Length: \($0)\r\n" },
        ]
        for index in 0..<300 {
            let body = #"{"i":\#(index),"s":""# + String(repeating: "ü", count: Int.random(in: 0...40, using: &generator)) + #""}"#
            expected.append(body)
            input += lsp(body, headers: headerStyles[index % headerStyles.count](body.utf8.count))
            if index % 7 == 0 { input += "\r\n" }
        }
        let bytes = Array(input.utf8)
        assertRandomChunkings(bytes, framing: .lsp, largestChunk: 400, gives: expected)
    }
    func test_lspStreamWithBadFrames_randomChunkings_giveTheEventsOfOneChunk() {
        let pieces = [
            lsp(ok), "Bad\r\n\r\n{\"lost\":1}", lsp("[1]"), lsp(String(repeating: "z", count: 300)),
            lsp("[2]", headers: "Content-Length: 3\r\nContent-Length: 4\r\n"), lsp("[3]"),
            lsp("{}", headers: "Content-Length: 2\r\nX: " + String(repeating: "h", count: limit) + "\r\n"), lsp("[4]"),
            lsp("{}", headers: "Content-Length: +2\n"), "\r\n", lsp("[5]"),
        ]
        var input = ""
        for index in 0..<60 { input += pieces[index % pieces.count] }
        let bytes = Array(input.utf8)
        let whole = FrameFeeder.events(bytes, chunks: [Int.max], framing: .lsp, max: 200)
        XCTAssertEqual(whole.filter { $0 == "[5]" }.count, 60 / pieces.count)
        XCTAssertEqual(whole.filter { $0 == "error:MessageTooLarge" }.count, 60 / pieces.count + 1)
        XCTAssertEqual(whole.filter { $0 == "error:FramingError" }.count, 4 * (60 / pieces.count) + 2)
        assertRandomChunkings(bytes, framing: .lsp, max: 200, largestChunk: 500, gives: whole)
    }
}
