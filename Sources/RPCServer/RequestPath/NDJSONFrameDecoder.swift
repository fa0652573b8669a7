/// Decodes newline-delimited JSON: one message per line.
///
/// - Lines end with `\n`; one `\r` before it is dropped. Surrounding spaces, tabs and CRs are
///   trimmed from the message, and blank lines are skipped.
/// - The size limit counts a line's bytes before its `\n`, minus one trailing `\r`. A line over
///   `maxMessageBytes` is reported once (`messageTooLarge`) and skipped as it streams: at most
///   `maxMessageBytes + 1` bytes of it are ever held, so the events do not depend on how the input
///   is chunked.
/// - Each byte is searched for `\n` once (memchr); the searched length survives appends.
/// - End of input (`decodeLast`): an unterminated last line is a message (or `messageTooLarge` by
///   the same rule); only whitespace left, or the tail of a line already reported as too large,
///   gives nothing.
///
/// The swift-nio `ByteToMessageDecoder` shape: `decode` until it returns nil, append, repeat;
/// `decodeLast` once at end of input. Not thread-safe: owned by one `FrameDecoder`.
struct NDJSONFrameDecoder {
    let maxMessageBytes: Int

    /// How many readable bytes have been searched for `\n` already.
    private var searched = 0
    /// Skipping the rest of a line already reported as too large.
    private var discarding = false

    init(maxMessageBytes: Int) {
        self.maxMessageBytes = maxMessageBytes
    }

    // MARK: - Decoding

    /// The next line's message or error, or nil when more input is needed.
    mutating func decode(_ buffer: inout FrameBuffer) -> FrameDecoder.Event? {
        while true {
            guard let newline = buffer.firstOffset(of: Ascii.lf, from: searched) else {
                if discarding {
                    buffer.consumeAll()
                    searched = 0
                } else if buffer.readableCount - 1 > maxMessageBytes {
                    // Over the limit even if the last byte held is a CR before the newline.
                    // (Written so that `maxMessageBytes == Int.max` cannot overflow.)
                    discarding = true
                    buffer.consumeAll()
                    searched = 0
                    return .error(.messageTooLarge(limit: maxMessageBytes))
                } else {
                    searched = buffer.readableCount
                }
                return nil
            }
            defer {
                buffer.consume(newline + 1)
                searched = 0
            }
            if discarding {
                discarding = false
                continue
            }
            if let event = event(forLineOf: newline, in: buffer) { return event }
        }
    }

    /// Call once at end of input, after `decode` returned nil: what the unterminated tail amounts
    /// to. Resets the decoder.
    mutating func decodeLast(_ buffer: inout FrameBuffer) -> FrameDecoder.Event? {
        defer {
            buffer.consumeAll()
            searched = 0
            discarding = false
        }
        guard !discarding else { return nil }
        return event(forLineOf: buffer.readableCount, in: buffer)
    }

    // MARK: - Lines

    /// The event for the line in the readable bytes `0..<length` (its `\n` excluded), or nil if
    /// the line is blank.
    private func event(forLineOf length: Int, in buffer: FrameBuffer) -> FrameDecoder.Event? {
        var upper = length
        if upper > 0, buffer[upper - 1] == Ascii.cr { upper -= 1 }
        if upper > maxMessageBytes { return .error(.messageTooLarge(limit: maxMessageBytes)) }
        var lower = 0
        while lower < upper, Ascii.isWhitespace(buffer[lower]) { lower += 1 }
        while upper > lower, Ascii.isWhitespace(buffer[upper - 1]) { upper -= 1 }
        return lower < upper ? .message(buffer.slice(lower..<upper)) : nil
    }
}
