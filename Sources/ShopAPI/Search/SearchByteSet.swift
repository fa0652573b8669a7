/// A set of bytes (256 bits), for a test per token that costs no hashing: which first bytes of a
/// word can match a query at all (`SearchQueryPlan.firstBytes`). Value type; `Sendable`.
struct SearchByteSet: Sendable, Equatable {
    private var bits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    mutating func insert(_ byte: UInt8) {
        let bit = UInt64(1) << UInt64(byte & 63)
        switch byte >> 6 {
        case 0: bits.0 |= bit
        case 1: bits.1 |= bit
        case 2: bits.2 |= bit
        default: bits.3 |= bit
        }
    }

    func contains(_ byte: UInt8) -> Bool {
        let bit = UInt64(1) << UInt64(byte & 63)
        switch byte >> 6 {
        case 0: return bits.0 & bit != 0
        case 1: return bits.1 & bit != 0
        case 2: return bits.2 & bit != 0
        default: return bits.3 & bit != 0
        }
    }

    /// Inserts the first UTF-8 byte of `word` (nothing for an empty one).
    mutating func insertFirstByte(of word: String) {
        if let first = word.utf8.first { insert(first) }
    }

    /// Whether the first UTF-8 byte of `word` is in the set (false for an empty one).
    func containsFirstByte(of word: String) -> Bool {
        word.utf8.first.map(contains) ?? false
    }

    static func == (a: SearchByteSet, b: SearchByteSet) -> Bool {
        a.bits == b.bits
    }
}
