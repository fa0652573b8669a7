#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a byte source into lines at LF, in constant memory: a 64 KiB read buffer plus one line
/// of at most `maxLineBytes`. A CR before the LF is dropped, and so is a UTF-8 byte order mark at
/// the very start. A longer line is reported as too long (its bytes are skipped up to its LF), so
/// the next line is read as usual. A value type; one thread.
struct NDJSONLineReader<Source: ByteSource> {
    enum Line {
        /// `bytes` holds the line, without its line end.
        case line
        /// The line was longer than the limit; `bytes` is empty.
        case tooLong
    }

    private var input: ByteSourceBuffer<Source>
    private let maxLineBytes: Int
    /// The line `next()` returned.
    private(set) var bytes: [UInt8] = []
    /// Its 1-based line number.
    private(set) var line = 0
    var bytesRead: Int { input.bytesRead }

    init(source: Source, bufferSize: Int = 64 << 10, maxLineBytes: Int = CatalogLimits.maxRecordBytes) {
        input = ByteSourceBuffer(source: source, size: bufferSize)
        self.maxLineBytes = maxLineBytes
    }

    /// The next line, or nil at the end of the input (a last line without LF is still a line).
    mutating func next() throws(ByteSourceError) -> Line? {
        bytes.removeAll(keepingCapacity: true)
        line += 1
        var tooLong = false
        var sawAnything = false
        while true {
            if input.isConsumed {
                guard try input.refill() else {
                    guard sawAnything else { return nil }
                    return finishLine(tooLong: tooLong)
                }
            }
            sawAnything = true
            let position = input.position
            let limit = tooLong ? nil : maxLineBytes + 1 - bytes.count  // + 1: a CR before the LF
            var lineBytes = bytes
            bytes = []
            let (end, foundLineFeed) = input.withBytes { all -> (Int, Bool) in
                let start = all.baseAddress! + position
                let found = memchr(start, Int32(UInt8(ascii: "\n")), all.count - position)
                let end = found.map { position + (UnsafeRawPointer($0) - UnsafeRawPointer(start)) } ?? all.count
                if let limit, end - position <= limit {
                    lineBytes.append(contentsOf: UnsafeBufferPointer(rebasing: all[position..<end]))
                }
                return (end, found != nil)
            }
            bytes = lineBytes
            if let limit, end - position > limit {
                tooLong = true
                bytes.removeAll(keepingCapacity: true)
            }
            input.consume(to: foundLineFeed ? end + 1 : end)
            if foundLineFeed { return finishLine(tooLong: tooLong) }
        }
    }

    private mutating func finishLine(tooLong: Bool) -> Line {
        if tooLong { return .tooLong }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        if bytes.count > maxLineBytes {
            bytes.removeAll(keepingCapacity: true)
            return .tooLong
        }
        return .line
    }
}
