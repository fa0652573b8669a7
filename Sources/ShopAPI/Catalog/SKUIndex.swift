#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The SKUs seen so far in one file and the line each first appeared on, to find a SKU given
/// twice. SKUs are compared byte for byte, as the stores compare keys (Swift's `String ==` would
/// call two different encodings of "é" equal; SQLite and PostgreSQL do not).
///
/// Compact, since a file may hold millions of rows: the SKUs' bytes one after the other in one
/// array, 32-bit ends and lines, and an open-addressing table of 32-bit entry numbers (about 27
/// bytes a SKU for 11-byte SKUs, against about 50 for a `[String: Int]`). It holds up to 4 GiB of
/// SKU bytes and lines up to 2^32 − 1. A value type; one thread.
struct SKUIndex {
    private var bytes: [UInt8] = []
    /// The end of each entry's bytes in `bytes`.
    private var ends: [UInt32] = []
    private var lines: [UInt32] = []
    /// Entry numbers, -1 for an empty slot; a power of two long, at most half full.
    private var slots = [Int32](repeating: -1, count: 1024)

    var count: Int { ends.count }

    enum Insertion: Equatable {
        case new
        /// The SKU was first seen on this line.
        case repeated(line: Int)
        /// The index is full (4 GiB of SKU bytes, or a line beyond 2^32 − 1); nothing was recorded.
        case full
    }

    /// Records `sku`, first seen on `line`, unless it was seen before.
    mutating func insert(_ sku: UnsafeBufferPointer<UInt8>, line: Int) -> Insertion {
        let hash = Self.hash(sku)
        var slot = slotIndex(hash)
        while true {
            let entry = Int(slots[slot])
            if entry < 0 { break }
            if entryEquals(entry, sku) { return .repeated(line: Int(lines[entry])) }
            slot = (slot + 1) & (slots.count - 1)
        }
        guard bytes.count + sku.count <= Int(UInt32.max), line <= Int(UInt32.max), ends.count < Int(Int32.max) else { return .full }
        slots[slot] = Int32(ends.count)
        bytes.append(contentsOf: sku)
        ends.append(UInt32(bytes.count))
        lines.append(UInt32(line))
        if ends.count * 2 > slots.count { grow() }
        return .new
    }

    mutating func insert(_ sku: String, line: Int) -> Insertion {
        var sku = sku
        return sku.withUTF8 { insert($0, line: line) }
    }

    private func entryEquals(_ entry: Int, _ sku: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = entry == 0 ? 0 : Int(ends[entry - 1])
        guard Int(ends[entry]) - start == sku.count else { return false }
        return bytes.withUnsafeBufferPointer { all in
            sku.isEmpty || memcmp(all.baseAddress! + start, sku.baseAddress!, sku.count) == 0
        }
    }

    private func slotIndex(_ hash: UInt64) -> Int {
        Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - slots.count.trailingZeroBitCount))
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        bytes.withUnsafeBufferPointer { all in
            for entry in 0..<ends.count {
                let start = entry == 0 ? 0 : Int(ends[entry - 1])
                var slot = slotIndex(Self.hash(UnsafeBufferPointer(rebasing: all[start..<Int(ends[entry])])))
                while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
                slots[slot] = Int32(entry)
            }
        }
    }

    /// FNV-1a, 64 bits; `slotIndex` mixes it further.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
