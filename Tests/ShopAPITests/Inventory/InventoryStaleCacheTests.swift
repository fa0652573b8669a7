import XCTest
@testable import ShopAPI

/// `InventoryStaleCache`: the last level per SKU with its age, never older than asked, bounded
/// in entries and bytes.
final class InventoryStaleCacheTests: XCTestCase {
    private let ms: UInt64 = 1_000_000

    func test_level_isTheLastStored_withItsAge_andNothingOlderThanTheMaximum() throws {
        var cache = InventoryStaleCache()
        XCTAssertNil(cache.level(sku: "A", nowNs: 0, maxAgeMs: 1_000), "never a level that was not given")
        cache.store(sku: "A", available: 3, nowNs: 1_000 * ms)
        cache.store(sku: "A", available: 5, nowNs: 2_000 * ms)
        let level = try XCTUnwrap(cache.level(sku: "A", nowNs: 2_750 * ms, maxAgeMs: 1_000))
        XCTAssertEqual(level.available, 5, "the newest level")
        XCTAssertEqual(level.ageMs, 750)
        XCTAssertNotNil(cache.level(sku: "A", nowNs: 3_000 * ms, maxAgeMs: 1_000), "exactly the maximum age is allowed")
        XCTAssertNil(cache.level(sku: "A", nowNs: 3_001 * ms, maxAgeMs: 1_000), "older than the maximum: not given")
        XCTAssertEqual(cache.count, 1)
    }

    func test_full_dropsTheSkusStoredLongestAgo_byEntries() {
        var cache = InventoryStaleCache(maxEntries: 3, maxBytes: 1 << 20)
        for (index, sku) in ["A", "B", "C"].enumerated() { cache.store(sku: sku, available: index, nowNs: UInt64(index) * ms) }
        cache.store(sku: "A", available: 9, nowNs: 10 * ms)  // A is now the newest
        cache.store(sku: "D", available: 4, nowNs: 11 * ms)
        XCTAssertEqual(cache.count, 3)
        XCTAssertNil(cache.level(sku: "B", nowNs: 12 * ms, maxAgeMs: 1_000), "B was stored longest ago")
        XCTAssertEqual(cache.level(sku: "A", nowNs: 12 * ms, maxAgeMs: 1_000)?.available, 9)
        XCTAssertNotNil(cache.level(sku: "C", nowNs: 12 * ms, maxAgeMs: 1_000))
        XCTAssertNotNil(cache.level(sku: "D", nowNs: 12 * ms, maxAgeMs: 1_000))
    }

    func test_full_byBytes_andManyUpdates_stayWithinBothBounds() {
        let entryBytes = 8 + InventoryStaleCache.entryOverheadBytes  // "SKU-0000" and the overhead
        var cache = InventoryStaleCache(maxEntries: 1_000, maxBytes: 10 * entryBytes)
        for round in 0..<50 {
            for n in 0..<40 {
                cache.store(sku: String(format: "SKU-%04d", n), available: n, nowNs: UInt64(round * 40 + n) * ms)
                XCTAssertLessThanOrEqual(cache.bytes, 10 * entryBytes)
            }
        }
        XCTAssertEqual(cache.count, 10)
        XCTAssertNotNil(cache.level(sku: "SKU-0039", nowNs: 2_000 * ms, maxAgeMs: 1_000), "the newest are kept")
        XCTAssertNil(cache.level(sku: "SKU-0000", nowNs: 2_000 * ms, maxAgeMs: 100_000), "the oldest were dropped")
    }
}
