/// The character encodings a catalog file may be read in (`--encoding`). Files are UTF-8 unless
/// told otherwise; spreadsheets on Windows often save Windows-1252. Every byte of a single-byte
/// encoding is one character, so reading one never fails (`TranscodingSource`).
public enum TextEncoding: String, CaseIterable, Sendable {
    case utf8 = "utf-8"
    /// WHATWG's windows-1252: ISO 8859-1 except 0x80…0x9F, which are `€`, `‚`, `ƒ`, … (the five
    /// bytes Windows leaves undefined, 0x81, 0x8D, 0x8F, 0x90 and 0x9D, are the C1 controls of
    /// the same number, as WHATWG maps them).
    case windows1252 = "windows-1252"
    /// ISO 8859-1: each byte is the Unicode character of the same number.
    case latin1 = "latin-1"

    /// The Unicode scalar value of `byte` in a single-byte encoding (not `.utf8`).
    func scalar(_ byte: UInt8) -> UInt32 {
        if self == .windows1252, byte >= 0x80, byte <= 0x9F { return Self.windows1252High[Int(byte - 0x80)] }
        return UInt32(byte)
    }

    /// Windows-1252's 0x80…0x9F (WHATWG's index-windows-1252, the first 32 entries).
    private static let windows1252High: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]
}

/// A byte source that reads another in `encoding` and hands out UTF-8, streaming: each read takes
/// at most a third of the caller's buffer from the source (a character is at most 3 bytes in
/// UTF-8) and keeps what does not fit for the next read, so memory stays that of the buffers.
/// UTF-8 passes through untouched. One thread; a value type.
public struct TranscodingSource<Source: ByteSource>: ByteSource {
    private var source: Source
    public let encoding: TextEncoding
    private var input: [UInt8] = []
    /// Transcoded bytes not handed out yet, from `pendingStart` on.
    private var pending: [UInt8] = []
    private var pendingStart = 0

    public init(_ source: Source, encoding: TextEncoding) {
        self.source = source
        self.encoding = encoding
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(ByteSourceError) -> Int {
        guard encoding != .utf8 else { return try source.read(into: buffer) }
        guard buffer.count > 0 else { return 0 }
        if pendingStart == pending.count {
            let wanted = max(buffer.count / 3, 1)
            if input.count < wanted { input = [UInt8](repeating: 0, count: wanted) }
            var failure: ByteSourceError?
            let count = input.withUnsafeMutableBytes { raw -> Int in
                do throws(ByteSourceError) {
                    return try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[..<wanted]))
                } catch {
                    failure = error
                    return 0
                }
            }
            if let failure { throw failure }
            if count == 0 { return 0 }
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
            for index in 0..<count { append(input[index]) }
        }
        let count = min(buffer.count, pending.count - pendingStart)
        pending.withUnsafeBytes { bytes in
            buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + pendingStart, byteCount: count)
        }
        pendingStart += count
        return count
    }

    /// Appends `byte`'s character to `pending` in UTF-8.
    private mutating func append(_ byte: UInt8) {
        if byte < 0x80 { return pending.append(byte) }
        let scalar = encoding.scalar(byte)
        if scalar < 0x800 {
            pending.append(UInt8(0xC0 | (scalar >> 6)))
        } else {
            pending.append(UInt8(0xE0 | (scalar >> 12)))
            pending.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
        }
        pending.append(UInt8(0x80 | (scalar & 0x3F)))
    }
}
