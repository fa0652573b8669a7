import Foundation  // memchr

/// Splits an incoming byte stream into message bodies, incrementally.
///
/// Feed it chunks of any size with `append`, then pull events with `next()` until it returns nil.
/// Each byte is scanned once (the scan position survives across appends), the buffer is compacted
/// in amortised O(1), and memory is bounded by `maxMessageBytes` plus one chunk: an oversized
/// message is skipped as it streams in and reported once. With `framing == nil` the framing is
/// detected from the first non-whitespace byte. Not thread-safe: owned by one queue (the reader).
public struct FrameDecoder {
    /// What `next()` produced: the body of one message, or an error to report (id null).
    public enum Event: Equatable {
        case message(ArraySlice<UInt8>)
        case error(RPCError)
    }

    public private(set) var framing: Framing?
    public let maxMessageBytes: Int
    public static let maxHeaderBytes = 8 * 1024

    private var buffer: [UInt8] = []
    /// Start of unconsumed data.
    private var start = 0
    /// Everything before `scan` (and after `start`) has been searched for a newline already.
    private var scan = 0
    private var state = State.idle

    private enum State: Equatable {
        case idle
        /// NDJSON: skipping an oversized line up to its newline.
        case discardingLine
        /// LSP: reading a header block; `contentLength` once seen.
        case headers(contentLength: Int?)
        /// LSP: waiting for `length` body bytes.
        case body(length: Int)
        /// LSP: skipping `remaining` bytes of an oversized body.
        case discardingBody(remaining: Int)
        /// LSP: after a malformed header, skipping lines until one starts with `Content-Length:`.
        case resync(inJunkLine: Bool)
    }

    public init(framing: Framing? = nil, maxMessageBytes: Int = 16 * 1024 * 1024) {
        self.framing = framing
        self.maxMessageBytes = max(1, maxMessageBytes)
    }

    /// Bytes held but not yet consumed (for tests and back-pressure accounting).
    public var bufferedByteCount: Int { buffer.count - start }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compactIfWorthIt()
        buffer.append(contentsOf: bytes)
    }

    public mutating func append<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        compactIfWorthIt()
        buffer.append(contentsOf: bytes)
    }

    /// The next complete message or error, or nil when more input is needed.
    public mutating func next() -> Event? {
        if framing == nil, !detectFraming() { return nil }
        switch framing! {
        case .ndjson: return nextLine()
        case .lsp: return nextLSP()
        }
    }

    /// Call at end of input: returns what the unterminated tail amounts to (an unterminated last
    /// NDJSON line is a message; a truncated LSP message is an error), then resets.
    public mutating func finish() -> Event? {
        defer {
            buffer.removeAll()
            start = 0
            scan = 0
            state = .idle
        }
        guard let framing, start < buffer.count else { return nil }
        switch (framing, state) {
        case (.ndjson, .idle):
            let line = trimmed(start..<buffer.count)
            return line.isEmpty ? nil : .message(buffer[line])
        case (.lsp, .body), (.lsp, .headers):
            return .error(.framingError("input ended inside a message"))
        default:
            return nil
        }
    }

    // MARK: - Detection

    private mutating func detectFraming() -> Bool {
        while start < buffer.count, Self.isWhitespace(buffer[start]) { start += 1 }
        scan = start
        guard start < buffer.count else { return false }
        let first = buffer[start]
        framing = (first == UInt8(ascii: "C") || first == UInt8(ascii: "c")) ? .lsp : .ndjson
        return true
    }

    // MARK: - NDJSON

    private mutating func nextLine() -> Event? {
        while true {
            guard let newline = findNewline() else {
                scan = buffer.count
                if state == .discardingLine {
                    start = buffer.count  // drop what we scanned; keep skipping
                    scan = start
                } else if buffer.count - start > maxMessageBytes {
                    state = .discardingLine
                    start = buffer.count
                    scan = start
                    return .error(.messageTooLarge(limit: maxMessageBytes))
                }
                return nil
            }
            let lineRange = start..<newline
            start = newline + 1
            scan = start
            if state == .discardingLine {
                state = .idle
                continue
            }
            let line = trimmed(lineRange)
            if line.isEmpty { continue }
            if line.count > maxMessageBytes { return .error(.messageTooLarge(limit: maxMessageBytes)) }
            return .message(buffer[line])
        }
    }

    /// Finds the next '\n' at or after `scan` with memchr; does not move `scan`.
    private func findNewline() -> Int? {
        guard scan < buffer.count else { return nil }
        return buffer.withUnsafeBytes { raw -> Int? in
            let base = raw.baseAddress!
            guard let hit = memchr(base + scan, 0x0A, raw.count - scan) else { return nil }
            return base.distance(to: UnsafeRawPointer(hit))
        }
    }

    /// The range without surrounding whitespace (drops a trailing CR).
    private func trimmed(_ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, Self.isWhitespace(buffer[lower]) { lower += 1 }
        while upper > lower, Self.isWhitespace(buffer[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    // MARK: - LSP

    private mutating func nextLSP() -> Event? {
        while true {
            switch state {
            case .idle, .discardingLine:
                state = .headers(contentLength: nil)
            case .headers(let contentLength):
                guard let newline = findNewline() else {
                    scan = buffer.count
                    if buffer.count - start > Self.maxHeaderBytes {
                        state = .resync(inJunkLine: true)
                        start = buffer.count
                        scan = start
                        return .error(.framingError("header block longer than \(Self.maxHeaderBytes) bytes"))
                    }
                    return nil
                }
                var lineEnd = newline
                if lineEnd > start, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                let line = start..<lineEnd
                start = newline + 1
                scan = start
                if line.isEmpty {
                    guard let length = contentLength else {
                        state = .resync(inJunkLine: false)
                        return .error(.framingError("header block without Content-Length"))
                    }
                    if length > maxMessageBytes {
                        state = .discardingBody(remaining: length)
                        return .error(.messageTooLarge(limit: maxMessageBytes))
                    }
                    state = .body(length: length)
                    continue
                }
                switch parseHeader(line) {
                case .contentLength(let length): state = .headers(contentLength: length)
                case .other: break
                case .malformed(let detail):
                    state = .resync(inJunkLine: false)
                    return .error(.framingError(detail))
                }
            case .body(let length):
                guard buffer.count - start >= length else { return nil }
                let body = start..<(start + length)
                start += length
                scan = start
                state = .headers(contentLength: nil)
                return .message(buffer[body])
            case .discardingBody(let remaining):
                let available = min(remaining, buffer.count - start)
                start += available
                scan = start
                if available < remaining {
                    state = .discardingBody(remaining: remaining - available)
                    return nil
                }
                state = .headers(contentLength: nil)
            case .resync(let inJunkLine):
                if !inJunkLine, startsWithContentLength() {
                    state = .headers(contentLength: nil)
                    continue
                }
                if !inJunkLine, buffer.count - start < Self.contentLengthPrefix.count, findNewline() == nil {
                    return nil  // too few bytes to tell yet
                }
                guard let newline = findNewline() else {
                    start = buffer.count  // the whole partial line is junk
                    scan = start
                    state = .resync(inJunkLine: true)
                    return nil
                }
                start = newline + 1
                scan = start
                state = .resync(inJunkLine: false)
            }
        }
    }

    private static let contentLengthPrefix = Array("content-length:".utf8)

    private func startsWithContentLength() -> Bool {
        let prefix = Self.contentLengthPrefix
        guard buffer.count - start >= prefix.count else { return false }
        for offset in 0..<prefix.count where Self.lowercased(buffer[start + offset]) != prefix[offset] { return false }
        return true
    }

    private enum Header {
        case contentLength(Int)
        case other
        case malformed(String)
    }

    private func parseHeader(_ line: Range<Int>) -> Header {
        guard let colon = buffer[line].firstIndex(of: UInt8(ascii: ":")) else {
            return .malformed("header line without ':'")
        }
        let name = buffer[line.lowerBound..<colon]
        let lengthName = Self.contentLengthPrefix.dropLast()
        guard name.count == lengthName.count, zip(name, lengthName).allSatisfy({ Self.lowercased($0) == $1 }) else {
            return .other
        }
        let value = trimmed((colon + 1)..<line.upperBound)
        guard !value.isEmpty, value.count <= 18 else { return .malformed("invalid Content-Length value") }
        var length = 0
        for byte in buffer[value] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return .malformed("invalid Content-Length value") }
            length = length * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return .contentLength(length)
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) ? byte + 32 : byte
    }

    // MARK: - Buffer

    private mutating func compactIfWorthIt() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
            scan = 0
        } else if start > 64 * 1024, start > buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            scan -= start
            start = 0
        }
    }
}
