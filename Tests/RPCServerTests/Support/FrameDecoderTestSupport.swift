import XCTest
@testable import RPCServer

// MARK: - Feeding a FrameDecoder in chunks

/// Test helpers shared by the framing tests: feed a byte string to a fresh `FrameDecoder` in given
/// chunk sizes, drain `next()` after every append, then call `finish()`, and describe each event as
/// a string (a message's body as text, an error as `error:<data.type>`).
enum FrameFeeder {
    /// The chunkings every framing case is fed with: byte by byte, a few small odd sizes, and all
    /// at once.
    static let standardChunkings: [[Int]] = [[1], [2], [3], [7], [Int.max]]

    /// Feeds `input` in the given chunk sizes (cycled) and collects every event, then the tail.
    static func events(_ input: [UInt8], chunks: [Int], framing: Framing? = nil, max: Int = 1 << 20) -> [String] {
        var decoder = FrameDecoder(framing: framing, maxMessageBytes: max)
        var out: [String] = []
        var offset = 0
        var chunkIndex = 0
        while offset < input.count {
            let size = Swift.max(1, chunks[chunkIndex % chunks.count])
            chunkIndex += 1
            let end = size >= input.count - offset ? input.count : offset + size
            decoder.append(input[offset..<end])
            offset = end
            while let event = decoder.next() { out.append(describe(event)) }
        }
        if let tail = decoder.finish() { out.append(describe(tail)) }
        return out
    }

    static func describe(_ event: FrameDecoder.Event) -> String {
        switch event {
        case .message(let body): return String(decoding: body, as: UTF8.self)
        case .error(let error): return "error:\(error.type ?? "")"
        }
    }

    /// An LSP frame: `headers` (default: one correct `Content-Length` line), a blank line, `body`.
    static func lsp(_ body: String, headers: String? = nil) -> String {
        (headers ?? "Content-Length: \(body.utf8.count)\r\n") + "\r\n" + body
    }
}

/// Asserts that `input`, fed in chunks of 1, 2, 3, 7 and all at once, gives exactly `expected`.
func assertEveryChunking(_ input: String, framing: Framing? = nil, max: Int = 1 << 20, gives expected: [String],
                         file: StaticString = #filePath, line: UInt = #line) {
    assertEveryChunking(Array(input.utf8), framing: framing, max: max, gives: expected, file: file, line: line)
}

func assertEveryChunking(_ input: [UInt8], framing: Framing? = nil, max: Int = 1 << 20, gives expected: [String],
                         file: StaticString = #filePath, line: UInt = #line) {
    for chunks in FrameFeeder.standardChunkings {
        let got = FrameFeeder.events(input, chunks: chunks, framing: framing, max: max)
        XCTAssertEqual(got, expected, "chunks of \(chunks[0] == Int.max ? "all" : String(chunks[0]))", file: file, line: line)
    }
}

/// Asserts that `input` gives exactly `expected` in 100 random chunkings (six chunk sizes from 1 to
/// `largestChunk`, repeated; a failure names them) and in every standard chunking.
func assertRandomChunkings(_ input: [UInt8], framing: Framing? = nil, max: Int = 1 << 20, largestChunk: Int,
                           gives expected: [String], file: StaticString = #filePath, line: UInt = #line) {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<100 {
        let chunks = (0..<6).map { _ in Int.random(in: 1...largestChunk, using: &generator) }
        XCTAssertEqual(FrameFeeder.events(input, chunks: chunks, framing: framing, max: max), expected, "chunks \(chunks)",
                       file: file, line: line)
    }
    assertEveryChunking(input, framing: framing, max: max, gives: expected, file: file, line: line)
}
