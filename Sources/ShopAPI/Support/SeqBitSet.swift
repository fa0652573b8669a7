/// A set of catalog positions (`products.seq`, from 1), one bit each: an import marks the
/// products its file lists, so `--replace` can archive the others with 125 KB per million
/// products instead of a set of SKUs. Value type; one thread.
struct SeqBitSet {
    private var words: [UInt64] = []

    mutating func insert(_ seq: Int64) {
        guard seq >= 0 else { return }
        let index = Int(seq >> 6)
        if index >= words.count { words.append(contentsOf: repeatElement(0, count: index + 1 - words.count)) }
        words[index] |= 1 << UInt64(seq & 63)
    }

    func contains(_ seq: Int64) -> Bool {
        guard seq >= 0 else { return false }
        let index = Int(seq >> 6)
        return index < words.count && words[index] & (1 << UInt64(seq & 63)) != 0
    }
}
