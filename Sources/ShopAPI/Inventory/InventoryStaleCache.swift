/// The last fresh level the inventory service gave for each SKU, kept so a check the service
/// cannot answer in time can be answered with it, marked stale with its age
/// (`--inventory-stale-ms`; protocol.md, "Live inventory"). Never a level the service did not give.
///
/// Bounded: at most `maxEntries` SKUs and `maxBytes` bytes (each entry counts its SKU's UTF-8
/// bytes plus `entryOverheadBytes`). When full, the SKUs stored longest ago are dropped first. A
/// level older than the caller's `maxAgeMs` is never returned. A value type; the owner serializes
/// access (`InventoryFlightTable` owns it, behind `HTTPInventorySource`'s lock).
struct InventoryStaleCache: Sendable {
    static let defaultMaxEntries = 100_000
    static let defaultMaxBytes = 16 << 20
    /// What one entry costs besides its SKU's bytes: the dictionary slot, the record in `order`, the counts.
    static let entryOverheadBytes = 64

    private struct Entry: Sendable {
        var available: Int
        var storedAtNs: UInt64
    }

    let maxEntries: Int
    let maxBytes: Int
    private var entries: [String: Entry] = [:]
    /// SKUs in the order they were stored; a record whose time no longer matches its entry's (the
    /// SKU was stored again since) is skipped when reached.
    private var order: [(sku: String, storedAtNs: UInt64)] = []
    private var head = 0
    private(set) var bytes = 0

    init(maxEntries: Int = defaultMaxEntries, maxBytes: Int = defaultMaxBytes) {
        self.maxEntries = max(1, maxEntries)
        self.maxBytes = max(Self.entryOverheadBytes + 1, maxBytes)
    }

    var count: Int { entries.count }

    /// Records a fresh level given by the service at `nowNs` (monotonic nanoseconds).
    mutating func store(sku: String, available: Int, nowNs: UInt64) {
        let cost = sku.utf8.count + Self.entryOverheadBytes
        guard cost <= maxBytes else { return }
        if entries.updateValue(Entry(available: available, storedAtNs: nowNs), forKey: sku) == nil {
            bytes += cost
        }
        order.append((sku, nowNs))
        while entries.count > maxEntries || bytes > maxBytes {
            evictOldest()
        }
        compactIfMostlyConsumed()
    }

    /// The level stored for `sku` and its age in whole milliseconds, if it is at most `maxAgeMs` old.
    func level(sku: String, nowNs: UInt64, maxAgeMs: Int) -> (available: Int, ageMs: Int)? {
        guard let entry = entries[sku] else { return nil }
        let ageMs = Int((nowNs &- entry.storedAtNs) / 1_000_000)
        guard nowNs >= entry.storedAtNs, ageMs <= maxAgeMs else { return nil }
        return (entry.available, ageMs)
    }

    private mutating func evictOldest() {
        while head < order.count {
            let record = order[head]
            head += 1
            if let entry = entries[record.sku], entry.storedAtNs == record.storedAtNs {
                entries.removeValue(forKey: record.sku)
                bytes -= record.sku.utf8.count + Self.entryOverheadBytes
                return
            }
        }
    }

    /// Drops consumed and superseded records once they are most of `order`, so it stays within a
    /// small multiple of the entries however often SKUs are stored again.
    private mutating func compactIfMostlyConsumed() {
        guard order.count >= 1024, order.count > 2 * entries.count + head else {
            if head >= 1024, head * 2 >= order.count {
                order.removeFirst(head)
                head = 0
            }
            return
        }
        order = order[head...].filter { entries[$0.sku]?.storedAtNs == $0.storedAtNs }
        head = 0
    }
}
