/// The fields of one CSV record, as bytes exactly as the file holds them once quoting is undone
/// (not yet checked to be UTF-8). Storage is reused from record to record by the reader that owns
/// it; a copy a caller keeps stays valid (copy on write).
package struct CSVFields: Sendable {
    /// Every field's bytes, one after the other.
    var bytes: [UInt8] = []
    /// The end offset in `bytes` of each field.
    var ends: [Int] = []

    package init() {
        bytes.reserveCapacity(1024)
        ends.reserveCapacity(16)
    }

    package var count: Int { ends.count }

    /// The number of bytes in field `index`.
    package func byteCount(at index: Int) -> Int {
        ends[index] - (index == 0 ? 0 : ends[index - 1])
    }

    /// Calls `body` with field `index`'s bytes, valid only during the call.
    package func withBytes<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let start = index == 0 ? 0 : ends[index - 1]
        return try bytes.withUnsafeBufferPointer { all in
            try body(UnsafeBufferPointer(rebasing: all[start..<ends[index]]))
        }
    }

    /// Field `index` as a string, or nil if its bytes are not valid UTF-8.
    package func string(at index: Int) -> String? {
        withBytes(at: index) { String(validating: $0, as: UTF8.self) }
    }

    /// Whether every byte of the record is ASCII (then every field is valid UTF-8).
    package var isASCII: Bool {
        bytes.withUnsafeBytes { raw in
            var index = 0
            var high: UInt64 = 0
            while index + 8 <= raw.count {
                high |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                index += 8
            }
            while index < raw.count {
                high |= UInt64(raw[index])
                index += 1
            }
            return high & 0x8080_8080_8080_8080 == 0
        }
    }

    /// Field `index` as a string, known to be valid UTF-8 (say, because the record `isASCII`).
    func string(validUTF8 index: Int) -> String {
        withBytes(at: index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Every field as a string, invalid UTF-8 repaired with U+FFFD (for tests and diagnostics).
    package var strings: [String] {
        (0..<count).map { index in withBytes(at: index) { String(decoding: $0, as: UTF8.self) } }
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }
}
