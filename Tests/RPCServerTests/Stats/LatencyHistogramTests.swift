import XCTest
@testable import RPCServer

/// The histogram behind `rpc.stats` latencies: exact below 32 µs, within 1/32 above, never below
/// the true quantile, bounded memory whatever is recorded.
final class LatencyHistogramTests: XCTestCase {
    func test_empty_hasNoQuantiles() {
        XCTAssertNil(LatencyHistogram().quantileMicros(0.5))
    }

    func test_smallValues_areExact() {
        var histogram = LatencyHistogram()
        for micros in 1...10 { histogram.record(micros: UInt64(micros)) }
        XCTAssertEqual(histogram.quantileMicros(0.5), 5)    // the 5th smallest of 10
        XCTAssertEqual(histogram.quantileMicros(0.99), 10)  // ⌈9.9⌉ = the 10th
        XCTAssertEqual(histogram.quantileMicros(0), 1)
        XCTAssertEqual(histogram.quantileMicros(1), 10)
    }

    func test_p50AndP99_ofOneToTenThousand_areWithinTheStatedPrecision_andNeverBelow() {
        var histogram = LatencyHistogram()
        for micros in 1...10_000 { histogram.record(micros: UInt64(micros)) }
        let p50 = try! XCTUnwrap(histogram.quantileMicros(0.5))
        let p99 = try! XCTUnwrap(histogram.quantileMicros(0.99))
        XCTAssertGreaterThanOrEqual(p50, 5_000)
        XCTAssertLessThanOrEqual(Double(p50), 5_000 * (1 + 1.0 / 32))
        XCTAssertGreaterThanOrEqual(p99, 9_900)
        XCTAssertLessThanOrEqual(Double(p99), 9_900 * (1 + 1.0 / 32))
    }

    func test_aFewSlowCalls_moveP99ButNotP50() {
        var histogram = LatencyHistogram()
        for _ in 0..<98 { histogram.record(micros: 400) }
        for _ in 0..<2 { histogram.record(micros: 6_000_000) }
        XCTAssertEqual(histogram.quantileMicros(0.5), LatencyHistogram.highestValue(inBucket: LatencyHistogram.bucketIndex(400)))
        let p99 = try! XCTUnwrap(histogram.quantileMicros(0.99))
        XCTAssertTrue((6_000_000...6_000_000 + 6_000_000 / 32).contains(p99), "\(p99)")
    }

    func test_everyBucketHoldsItsOwnBoundaries_andBucketsTileTheRange() {
        var expectedLowest: UInt64 = 0
        for index in 0..<LatencyHistogram.bucketCount {
            XCTAssertEqual(LatencyHistogram.bucketIndex(expectedLowest), index)
            let highest = LatencyHistogram.highestValue(inBucket: index)
            XCTAssertEqual(LatencyHistogram.bucketIndex(highest), index)
            XCTAssertLessThanOrEqual(Double(highest - expectedLowest + 1), max(1, Double(expectedLowest) / 32), "bucket \(index)")
            expectedLowest = highest + 1
        }
        XCTAssertEqual(expectedLowest - 1, LatencyHistogram.maxTrackedMicros)
    }

    func test_hugeValues_landInTheLastBucket_memoryStaysFixed() {
        var histogram = LatencyHistogram()
        histogram.record(micros: .max)
        histogram.record(micros: 1 << 50)
        XCTAssertEqual(histogram.buckets.count, LatencyHistogram.bucketCount)
        XCTAssertEqual(histogram.buckets.last, 2)
        XCTAssertEqual(histogram.quantileMicros(0.5), LatencyHistogram.maxTrackedMicros)
    }
}
