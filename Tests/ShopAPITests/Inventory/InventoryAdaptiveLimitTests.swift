import XCTest
@testable import ShopAPI

/// `InventoryAdaptiveLimit`, fed latency samples directly (no clock, no service).
final class InventoryAdaptiveLimitTests: XCTestCase {
    private let ms: UInt64 = 1_000_000

    func test_steadyLatency_keepsTheCeiling() {
        var limit = InventoryAdaptiveLimit(ceiling: 16)
        XCTAssertEqual(limit.limit, 16, "it starts at the ceiling")
        for _ in 0..<100 { limit.record(latencyNs: 100 * ms) }
        XCTAssertEqual(limit.limit, 16)
        XCTAssertEqual(limit.baselineNs, Double(100 * ms))
    }

    func test_latencyWithinToleranceOrJitter_doesNotShrinkIt() {
        var limit = InventoryAdaptiveLimit(ceiling: 16)
        for sample in [100, 190, 150, 199, 120] { limit.record(latencyNs: UInt64(sample) * ms) }
        XCTAssertEqual(limit.limit, 16, "under twice the no-load latency is not a slowdown")
        var fast = InventoryAdaptiveLimit(ceiling: 16)
        for sample in [1, 9, 3, 10, 2] { fast.record(latencyNs: UInt64(sample) * ms) }
        XCTAssertEqual(fast.limit, 16, "a 1 ms service's jitter of a few ms is not a slowdown")
    }

    func test_slowerService_shrinksTheLimit_stepByStep_toAFloorAboveOne_andItGrowsBack() {
        var limit = InventoryAdaptiveLimit(ceiling: 16)
        limit.record(latencyNs: 100 * ms)
        var seen: [Int] = []
        for _ in 0..<60 {
            limit.record(latencyNs: 2_000 * ms)
            seen.append(limit.limit)
        }
        XCTAssertEqual(seen, seen.sorted(by: >), "it only shrinks while the service stays slow: \(seen)")
        XCTAssertLessThan(seen[0], 16, "the first slow sample already lowers it")
        XCTAssertEqual(seen.last, 4, "limit × ½ + √limit settles at 4 while the gradient is at its floor")
        var grown: [Int] = []
        for _ in 0..<60 {
            limit.record(latencyNs: 100 * ms)
            grown.append(limit.limit)
        }
        XCTAssertEqual(grown, grown.sorted(), "it only grows once the service is fast again: \(grown)")
        XCTAssertEqual(grown.last, 16)
    }

    func test_aServiceSlowerForGood_isEventuallyTakenAsItIs() {
        var limit = InventoryAdaptiveLimit(ceiling: 16)
        limit.record(latencyNs: 10 * ms)
        for _ in 0..<2_000 { limit.record(latencyNs: 500 * ms) }
        XCTAssertEqual(limit.limit, 16, "the baseline crept up to the new latency, and the limit with it")
        XCTAssertGreaterThan(limit.baselineNs ?? 0, Double(250 * ms))
    }

    func test_fixedLimit_neverMoves_butStillMeasures() {
        var limit = InventoryAdaptiveLimit(ceiling: 8, adaptive: false)
        for _ in 0..<50 { limit.record(latencyNs: 5_000 * ms) }
        XCTAssertEqual(limit.limit, 8)
        XCTAssertEqual(limit.recentNs, Double(5_000 * ms))
    }
}
