/// The read buffer the file readers share: it asks its source for a buffer's worth at a time and
/// keeps the reader's place in it. At the very start of the input it reads at least three bytes
/// (if there are three) and skips a UTF-8 byte order mark. A value type; one thread.
struct ByteSourceBuffer<Source: ByteSource> {
    private var source: Source
    private var storage: [UInt8]
    /// The first byte not consumed yet.
    private(set) var position = 0
    /// How many bytes of `storage` hold input.
    private(set) var filled = 0
    private var atStart = true
    /// Bytes taken from the source so far.
    private(set) var bytesRead = 0

    init(source: Source, size: Int) {
        self.source = source
        storage = [UInt8](repeating: 0, count: max(size, 4))
    }

    /// Whether every byte read so far has been consumed.
    var isConsumed: Bool { position == filled }

    /// Calls `body` with the bytes read so far (`position` is the first unconsumed one).
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        storage.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[..<filled])) }
    }

    mutating func consume(to index: Int) {
        precondition(index >= position && index <= filled)
        position = index
    }

    /// Replaces the (consumed) contents with the next bytes of the input; false at its end.
    mutating func refill() throws(ByteSourceError) -> Bool {
        position = 0
        filled = 0
        if atStart {
            atStart = false
            repeat {
                let count = try readMore()
                if count == 0 { break }
                filled += count
            } while filled < 3
            if filled >= 3 && storage[0] == 0xEF && storage[1] == 0xBB && storage[2] == 0xBF { position = 3 }
            if position < filled || filled == 0 { return position < filled }
            position = 0  // only the mark so far: read on
            filled = 0
        }
        filled = try readMore()
        return filled > 0
    }

    /// Reads more of the input after the bytes already there (none are consumed) until `found`
    /// is true of some bytes read, the buffer is full, or the input ends. `found` sees each byte
    /// once: the unconsumed bytes first, then each read's.
    mutating func readAhead(until found: (UnsafeBufferPointer<UInt8>) -> Bool) throws(ByteSourceError) {
        var checked = position
        while true {
            let start = checked
            if withBytes({ found(UnsafeBufferPointer(rebasing: $0[start...])) }) { return }
            checked = filled
            guard filled < storage.count else { return }
            let count = try readMore()
            if count == 0 { return }
            filled += count
        }
    }

    private mutating func readMore() throws(ByteSourceError) -> Int {
        let offset = filled
        var failure: ByteSourceError?
        let count = storage.withUnsafeMutableBytes { raw -> Int in
            do throws(ByteSourceError) {
                return try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[offset...]))
            } catch {
                failure = error
                return 0
            }
        }
        if let failure { throw failure }
        bytesRead += count
        return count
    }
}
