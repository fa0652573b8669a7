#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes a frame decoder has received but not yet consumed, addressed by offsets from the
/// first unconsumed byte.
///
/// Offsets are relative to the read position, so they stay valid when the buffer compacts; a
/// decoder that remembers "I have searched the first `n` readable bytes" keeps that across appends.
/// Consuming only moves the read position (O(1)); the consumed prefix is dropped when an append
/// finds it is at least half of the storage and over 64 KiB, so compaction is amortised O(1) per
/// byte. Slices handed out share storage with the buffer (copy-on-write).
///
/// Not thread-safe: a value type owned by one `FrameDecoder`, itself owned by one queue.
struct FrameBuffer {
    private var storage: [UInt8] = []
    /// Index in `storage` of the first unconsumed byte.
    private var readIndex = 0

    /// Bytes received but not consumed.
    var readableCount: Int { storage.count - readIndex }

    // MARK: - Input

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compactIfWorthIt()
        storage.append(contentsOf: bytes)
    }

    mutating func append<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        compactIfWorthIt()
        storage.append(contentsOf: bytes)
    }

    // MARK: - Reading

    /// The readable byte at `offset` (`0..<readableCount`).
    subscript(offset: Int) -> UInt8 { storage[readIndex + offset] }

    /// The readable bytes at `offsets`, sharing storage with the buffer.
    func slice(_ offsets: Range<Int>) -> ArraySlice<UInt8> {
        storage[(readIndex + offsets.lowerBound)..<(readIndex + offsets.upperBound)]
    }

    /// The offset of the first `byte` at or after `offset`, found with memchr; nil if none.
    func firstOffset(of byte: UInt8, from offset: Int) -> Int? {
        let from = readIndex + offset
        guard from < storage.count else { return nil }
        return storage.withUnsafeBytes { raw -> Int? in
            let base = raw.baseAddress!
            guard let hit = memchr(base + from, Int32(byte), raw.count - from) else { return nil }
            return base.distance(to: UnsafeRawPointer(hit)) - readIndex
        }
    }

    /// Calls `body` with the readable bytes from `offset` to the end.
    func withReadableBytes<Result>(from offset: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        storage.withUnsafeBufferPointer { all in
            body(UnsafeBufferPointer(rebasing: all[(readIndex + offset)...]))
        }
    }

    // MARK: - Consuming

    /// Consumes the first `count` readable bytes (`0...readableCount`).
    mutating func consume(_ count: Int) {
        precondition(count >= 0 && count <= readableCount, "FrameBuffer.consume out of range")
        readIndex += count
    }

    /// Consumes the readable bytes up to the first that is not ASCII whitespace (between frames).
    mutating func consumeLeadingWhitespace() {
        var skip = 0
        while skip < readableCount, Ascii.isWhitespace(self[skip]) { skip += 1 }
        consume(skip)
    }

    /// Consumes everything readable.
    mutating func consumeAll() {
        readIndex = storage.count
    }

    /// Drops everything, keeping the allocation.
    mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        readIndex = 0
    }

    private mutating func compactIfWorthIt() {
        if readIndex == storage.count {
            storage.removeAll(keepingCapacity: true)
            readIndex = 0
        } else if readIndex > 64 * 1024, readIndex > storage.count / 2 {
            storage.removeSubrange(0..<readIndex)
            readIndex = 0
        }
    }
}
