/// Splits an incoming byte stream into message bodies, incrementally: the framing detector in
/// front of one decoder per wire format (`NDJSONFrameDecoder`, `LSPFrameDecoder`).
///
/// With `framing == nil` the framing is detected from the first non-whitespace byte (`C` or `c`
/// means LSP, anything else NDJSON; the whitespace before it is dropped); after that every byte
/// goes to that framing's decoder. Guarantees, for every chunking of the same input:
/// - the same events come out (byte by byte or all at once);
/// - each byte is searched once (the search position survives appends; memchr for newlines), and
///   the buffer compacts in amortised O(1);
/// - memory is bounded by `maxMessageBytes` (or `maxHeaderBytes` for an LSP header block) plus
///   one chunk: an oversized message is skipped as it streams in and reported once
///   (`RPCError.messageTooLarge`); malformed LSP headers are `RPCError.framingError`.
///
/// End of input (`finish()`): nothing detected yet, nothing; NDJSON, an unterminated last line is
/// a message; LSP, a message cut off in its header block or body is one `framingError`. The
/// decoders' doc comments give the details.
///
/// ```swift
/// var decoder = FrameDecoder()                 // auto-detect
/// decoder.append(bytesJustRead)
/// while let event = decoder.next() { handle(event) }
/// // at end of input, after next() returned nil:
/// if let tail = decoder.finish() { handle(tail) }
/// ```
///
/// Not thread-safe: owned by one queue (the connection's reader queue).
package struct FrameDecoder {
    /// What `next()` produced: the body of one message, or an error to report (id null).
    package enum Event: Equatable {
        case message(ArraySlice<UInt8>)
        case error(RPCError)
    }

    /// The framing in use: the one given to `init`, or the detected one (nil until detected).
    package private(set) var framing: Framing?
    package let maxMessageBytes: Int
    /// The largest LSP header block accepted, in bytes.
    package static let maxHeaderBytes = LSPFrameDecoder.maxHeaderBytes

    private var buffer = FrameBuffer()
    private var ndjson: NDJSONFrameDecoder
    private var lsp: LSPFrameDecoder

    package init(framing: Framing? = nil, maxMessageBytes: Int = 16 * 1024 * 1024) {
        self.framing = framing
        self.maxMessageBytes = max(1, maxMessageBytes)
        ndjson = NDJSONFrameDecoder(maxMessageBytes: self.maxMessageBytes)
        lsp = LSPFrameDecoder(maxMessageBytes: self.maxMessageBytes)
    }

    /// Bytes held but not yet consumed (for tests and back-pressure accounting).
    package var bufferedByteCount: Int { buffer.readableCount }

    // MARK: - Input

    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(bytes)
    }

    package mutating func append<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        buffer.append(bytes)
    }

    // MARK: - Events

    /// The next complete message or error, or nil when more input is needed.
    package mutating func next() -> Event? {
        guard let framing = framing ?? detectFraming() else { return nil }
        switch framing {
        case .ndjson: return ndjson.decode(&buffer)
        case .lsp: return lsp.decode(&buffer)
        }
    }

    /// Call once at end of input, after `next()` returned nil: what the unterminated tail amounts
    /// to (see the type's doc comment), then resets for new input (the framing is kept).
    package mutating func finish() -> Event? {
        defer { buffer.removeAll() }
        switch framing {
        case nil: return nil
        case .ndjson: return ndjson.decodeLast(&buffer)
        case .lsp: return lsp.decodeLast(&buffer)
        }
    }

    // MARK: - Detection

    /// Drops leading whitespace; at the first other byte, fixes and returns the framing.
    private mutating func detectFraming() -> Framing? {
        buffer.consumeLeadingWhitespace()
        guard buffer.readableCount > 0 else { return nil }
        let first = buffer[0]
        let detected: Framing = (first == UInt8(ascii: "C") || first == UInt8(ascii: "c")) ? .lsp : .ndjson
        framing = detected
        return detected
    }
}
