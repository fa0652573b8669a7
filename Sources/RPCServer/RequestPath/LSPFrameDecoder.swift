/// Decodes the LSP base protocol: a header block, a blank line, then `Content-Length` body bytes.
///
/// Guarantees, for any chunking of the same input (the events are identical):
/// - **Header block**: lines ending in `\r\n` or a bare `\n`; names are case-insensitive;
///   `Content-Length` is required, other headers are ignored. Whitespace (space, tab, CR, LF)
///   between frames and before the first one is skipped.
/// - **Content-Length value**: ASCII digits, optionally surrounded by spaces or tabs; leading zeros
///   are allowed; no sign. A value that does not fit in `Int` is a `framingError`. The header may
///   repeat with the same value; different values are a `framingError`. `0` gives an empty message.
/// - **Header limit**: a header block (its first byte through the blank line's `\n`) longer than
///   `maxHeaderBytes` is one `framingError`, however the bytes arrive; at most `maxHeaderBytes`
///   plus one chunk is ever held for it.
/// - **Size limit**: a body over `maxMessageBytes` is one `messageTooLarge` and is skipped as it
///   streams, never held.
/// - **Resynchronisation**: after a `framingError` in a header block, input is skipped up to the
///   next `Content-Length:` (case-insensitive) wherever it starts, even right after a body with no
///   newline. The search starts after the offending line and keeps only the bytes of a possible
///   partial match (under 15), and looks at each byte once.
/// - **End of input** (`decodeLast`): between frames, nothing; inside a header block or a body
///   (including a complete header block whose body has not started), one `framingError`; while
///   skipping an oversized body or resynchronising, nothing (that was already reported once).
/// - Each byte is searched for `\n` once (memchr); the searched length survives appends.
///
/// The swift-nio `ByteToMessageDecoder` shape: `decode` until it returns nil, append, repeat;
/// `decodeLast` once at end of input. Not thread-safe: owned by one `FrameDecoder`.
struct LSPFrameDecoder {
    /// The largest header block accepted, in bytes.
    static let maxHeaderBytes = 8 * 1024

    let maxMessageBytes: Int

    private var state = State.betweenFrames
    /// In `.headers`: readable bytes already searched for `\n`. In `.resynchronising`: the length of
    /// the partial `content-length:` match that the readable bytes start with.
    private var searched = 0

    private enum State: Equatable {
        /// Skipping whitespace before the next header block.
        case betweenFrames
        /// Reading a header block; the readable bytes start at the current line.
        case headers(HeaderBlock)
        /// Waiting for `length` body bytes.
        case body(length: Int)
        /// Skipping the rest of an oversized body.
        case discardingBody(remaining: Int)
        /// After an over-long header line was reported: skipping to its end, then resynchronising.
        case skippingRestOfLine
        /// After a bad header: searching for the next `content-length:`.
        case resynchronising
    }

    private struct HeaderBlock: Equatable {
        /// Bytes of the complete lines consumed so far, newlines included.
        var byteCount = 0
        var contentLength: Int?
    }

    init(maxMessageBytes: Int) {
        self.maxMessageBytes = maxMessageBytes
    }

    // MARK: - Decoding

    /// The next message or error, or nil when more input is needed.
    mutating func decode(_ buffer: inout FrameBuffer) -> FrameDecoder.Event? {
        while true {
            switch state {
            case .betweenFrames:
                buffer.consumeLeadingWhitespace()
                guard buffer.readableCount > 0 else { return nil }
                state = .headers(HeaderBlock())
                searched = 0
            case .headers(var block):
                guard let newline = buffer.firstOffset(of: Ascii.lf, from: searched) else {
                    // Every readable byte belongs to the unfinished line, so to the block.
                    if block.byteCount + buffer.readableCount > Self.maxHeaderBytes {
                        buffer.consumeAll()
                        searched = 0
                        state = .skippingRestOfLine
                        return .error(Self.headerBlockTooLong)
                    }
                    searched = buffer.readableCount
                    return nil
                }
                block.byteCount += newline + 1
                let event = takeHeaderLine(ofLength: newline, block: block, in: buffer)
                buffer.consume(newline + 1)
                searched = 0
                if let event { return event }
            case .body(let length):
                guard buffer.readableCount >= length else { return nil }
                let body = buffer.slice(0..<length)
                buffer.consume(length)
                state = .betweenFrames
                return .message(body)
            case .discardingBody(let remaining):
                let available = min(remaining, buffer.readableCount)
                buffer.consume(available)
                guard available == remaining else {
                    state = .discardingBody(remaining: remaining - available)
                    return nil
                }
                state = .betweenFrames
            case .skippingRestOfLine:
                guard let newline = buffer.firstOffset(of: Ascii.lf, from: 0) else {
                    buffer.consumeAll()
                    return nil
                }
                buffer.consume(newline + 1)
                searched = 0
                state = .resynchronising
            case .resynchronising:
                guard resynchronise(&buffer) else { return nil }
            }
        }
    }

    /// Call once at end of input, after `decode` returned nil: an error if a message was cut off.
    /// Resets the decoder.
    mutating func decodeLast(_ buffer: inout FrameBuffer) -> FrameDecoder.Event? {
        defer {
            buffer.consumeAll()
            searched = 0
            state = .betweenFrames
        }
        switch state {
        case .headers:
            return .error(.framingError("input ended inside a header block"))
        case .body(let length):
            return .error(.framingError("input ended inside a message body (\(buffer.readableCount) of \(length) bytes)"))
        case .betweenFrames, .discardingBody, .skippingRestOfLine, .resynchronising:
            return nil
        }
    }

    // MARK: - Header lines

    private static let headerBlockTooLong = RPCError.framingError("header block longer than \(maxHeaderBytes) bytes")

    /// Handles the header line in the readable bytes `0..<length` (its `\n` excluded; `block`
    /// already counts it): sets the next state and returns the error to report, if any.
    private mutating func takeHeaderLine(ofLength length: Int, block: HeaderBlock, in buffer: FrameBuffer) -> FrameDecoder.Event? {
        var block = block
        if block.byteCount > Self.maxHeaderBytes { return resynchronising(after: Self.headerBlockTooLong) }
        var end = length
        if end > 0, buffer[end - 1] == Ascii.cr { end -= 1 }
        if end == 0 {
            guard let length = block.contentLength else {
                return resynchronising(after: .framingError("header block without Content-Length"))
            }
            if length > maxMessageBytes {
                state = .discardingBody(remaining: length)
                return .error(.messageTooLarge(limit: maxMessageBytes))
            }
            state = .body(length: length)
            return nil
        }
        switch Self.parseHeader(0..<end, in: buffer) {
        case .contentLength(let value):
            if let earlier = block.contentLength, earlier != value {
                return resynchronising(after: .framingError("conflicting Content-Length headers (\(earlier) and \(value))"))
            }
            block.contentLength = value
        case .other:
            break
        case .malformed(let detail):
            return resynchronising(after: .framingError(detail))
        }
        state = .headers(block)
        return nil
    }

    private mutating func resynchronising(after error: RPCError) -> FrameDecoder.Event {
        state = .resynchronising
        return .error(error)
    }

    private enum Header {
        case contentLength(Int)
        case other
        case malformed(String)
    }

    private static let contentLengthName = Array("content-length".utf8)

    private static func parseHeader(_ line: Range<Int>, in buffer: FrameBuffer) -> Header {
        var colon = line.lowerBound
        while colon < line.upperBound, buffer[colon] != Ascii.colon { colon += 1 }
        guard colon < line.upperBound else { return .malformed("header line without ':'") }
        let name = contentLengthName
        guard colon - line.lowerBound == name.count,
              name.indices.allSatisfy({ Ascii.lowercased(buffer[line.lowerBound + $0]) == name[$0] }) else {
            return .other
        }
        var lower = colon + 1
        var upper = line.upperBound
        while lower < upper, Ascii.isBlank(buffer[lower]) { lower += 1 }
        while upper > lower, Ascii.isBlank(buffer[upper - 1]) { upper -= 1 }
        guard lower < upper else { return .malformed("empty Content-Length value") }
        var value = 0
        for offset in lower..<upper {
            let byte = buffer[offset]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                return .malformed("Content-Length value is not a decimal number")
            }
            let (tens, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, carried) = tens.addingReportingOverflow(Int(byte &- UInt8(ascii: "0")))
            guard !overflowed, !carried else { return .malformed("Content-Length value out of range") }
            value = sum
        }
        return .contentLength(value)
    }

    // MARK: - Resynchronisation

    /// `content-length:` in lower case. Its only `c` is its first byte, so it has no proper prefix
    /// that is also a suffix: after a mismatch, a match can only restart at the mismatching byte.
    private static let resyncPattern = Array("content-length:".utf8)

    /// Searches the readable bytes past the partial match already known for `content-length:`,
    /// consuming everything before the earliest possible match. Returns true (state `.headers`,
    /// readable bytes starting at the header) when found.
    private mutating func resynchronise(_ buffer: inout FrameBuffer) -> Bool {
        let pattern = Self.resyncPattern
        let known = searched
        let (candidate, found) = buffer.withReadableBytes(from: 0) { bytes -> (Int, Bool) in
            var candidate = 0
            var index = known
            while index < bytes.count {
                let byte = Ascii.lowercased(bytes[index])
                if byte == pattern[index - candidate] {
                    if index - candidate + 1 == pattern.count { return (candidate, true) }
                } else {
                    candidate = byte == pattern[0] ? index : index + 1
                }
                index += 1
            }
            return (candidate, false)
        }
        buffer.consume(candidate)
        if found {
            state = .headers(HeaderBlock())
            searched = pattern.count  // "content-length:" holds no newline
            return true
        }
        searched = buffer.readableCount
        return false
    }
}
