import XCTest
@testable import RPCServer

/// Newline-delimited JSON framing, fed through `FrameDecoder` with every standard chunking.
final class NDJSONFrameDecoderTests: XCTestCase {
    private let ok = #"{"ok":1}"#

    // MARK: - Size limit

    func test_ndjsonLine_exactlyMaxBytes_isAccepted_andOneMore_isTooLarge_withEitherLineEnding() {
        let max = 40
        let exact = "\"" + String(repeating: "e", count: max - 2) + "\""
        let over = "\"" + String(repeating: "o", count: max - 1) + "\""
        for ending in ["\n", "\r\n"] {
            assertEveryChunking(exact + ending + ok + ending, framing: .ndjson, max: max, gives: [exact, ok])
            assertEveryChunking(over + ending + ok + ending, framing: .ndjson, max: max, gives: ["error:MessageTooLarge", ok])
        }
    }

    func test_ndjsonLine_farOverTheLimit_isSkippedAsItStreams_withOneError() {
        var decoder = FrameDecoder(framing: .ndjson, maxMessageBytes: 100)
        var events: [String] = []
        let junk = [UInt8](repeating: UInt8(ascii: "j"), count: 1000)
        for _ in 0..<100 {
            decoder.append(junk)
            while let event = decoder.next() { events.append(FrameFeeder.describe(event)) }
            XCTAssertLessThanOrEqual(decoder.bufferedByteCount, 101)
        }
        decoder.append(Array("\n\(ok)\n".utf8))
        while let event = decoder.next() { events.append(FrameFeeder.describe(event)) }
        XCTAssertEqual(events, ["error:MessageTooLarge", ok])
    }

    // MARK: - Whitespace

    func test_ndjsonWhitespace_beforeTheFirstLineAndBlankLines_areSkipped() {
        let input = " \r\n\t\n" + ok + "\r\n\r\n   \n[1]\n"
        assertEveryChunking(input, framing: .ndjson, gives: [ok, "[1]"])
        assertEveryChunking(input, gives: [ok, "[1]"])
    }

    // MARK: - End of input

    func test_ndjsonEndOfInput_inEachState() {
        // An unterminated last line is a message; only whitespace left is nothing.
        assertEveryChunking(ok + "\n[1]", framing: .ndjson, gives: [ok, "[1]"])
        assertEveryChunking(ok + "\n[1]\r", framing: .ndjson, gives: [ok, "[1]"])
        assertEveryChunking(ok + "\n  \r", framing: .ndjson, gives: [ok])
        // An unterminated last line over the limit is too large, exactly as if it had its newline.
        assertEveryChunking(ok + "\n" + String(repeating: "x", count: 11), framing: .ndjson, max: 10,
                            gives: [ok, "error:MessageTooLarge"])
        assertEveryChunking(ok + "\n" + String(repeating: "x", count: 10) + "\r", framing: .ndjson, max: 10,
                            gives: [ok, String(repeating: "x", count: 10)])
        // Inside an oversized line being skipped: reported once already.
        assertEveryChunking(String(repeating: "x", count: 50), framing: .ndjson, max: 10, gives: ["error:MessageTooLarge"])
    }

    // MARK: - Random chunkings

    func test_ndjsonLongValidStream_randomChunkings_giveExactlyTheLinesBack() {
        var generator = SystemRandomNumberGenerator()
        var input = ""
        var expected: [String] = []
        for index in 0..<300 {
            let line = #"{"i":\#(index),"s":""# + String(repeating: "ü", count: Int.random(in: 0...40, using: &generator)) + #""}"#
            expected.append(line)
            input += line + (index % 3 == 0 ? "\r\n" : "\n") + (index % 11 == 0 ? "\n  \n" : "")
        }
        let bytes = Array(input.utf8)
        assertRandomChunkings(bytes, framing: .ndjson, largestChunk: 400, gives: expected)
    }
    func test_ndjsonStreamWithOversizedLines_randomChunkings_giveTheEventsOfOneChunk() {
        let pieces = [ok + "\n", String(repeating: "x", count: 150) + "\r\n", "[1]\r\n", String(repeating: "y", count: 101) + "\n",
                      "\n \n", "\"" + String(repeating: "e", count: 98) + "\"\r\n"]
        var input = ""
        for index in 0..<60 { input += pieces[index % pieces.count] }
        let bytes = Array(input.utf8)
        let whole = FrameFeeder.events(bytes, chunks: [Int.max], framing: .ndjson, max: 100)
        XCTAssertEqual(whole.count, 60 / pieces.count * 5)
        XCTAssertEqual(whole.filter { $0 == "error:MessageTooLarge" }.count, 60 / pieces.count * 2)
        assertRandomChunkings(bytes, framing: .ndjson, max: 100, largestChunk: 300, gives: whole)
    }
}
