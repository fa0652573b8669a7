/// Latencies in a fixed set of log-spaced buckets (HdrHistogram's layout): recording is one index
/// computation and one increment, memory is fixed (`bucketCount` counters, about 8 KiB), and
/// quantiles are read by one walk over the buckets.
///
/// **Precision.** Values are microseconds. Below 32 µs every value has its own bucket (exact);
/// above, each power of two is split into 32 equal sub-buckets, so a bucket spans at most 1/32 of
/// its lower bound. A quantile is reported as the highest value of its bucket: never below the
/// true quantile, and at most 3.125 % above it. Values from 2^36 µs (about 19 hours) up are
/// counted in the last bucket.
///
/// A value type with no lock: its owner serializes access (the engine keeps it under the lock of
/// its in-flight table).
///
/// ```swift
/// var histogram = LatencyHistogram()
/// for micros in [120, 130, 5_000] { histogram.record(micros: UInt64(micros)) }
/// histogram.quantileMicros(0.5)   // 130
/// ```
struct LatencyHistogram: Sendable, Equatable {
    /// Sub-buckets per power of two, as a power of two (2^5 = 32: 3.125 % relative precision).
    static let subBucketBits = 5
    static let subBucketCount = 1 << subBucketBits
    /// Powers of two covered above the exact range: values up to 2^(subBucketBits + octaves) µs.
    static let octaves = 31
    static let bucketCount = subBucketCount + octaves * subBucketCount
    static let maxTrackedMicros: UInt64 = (1 << UInt64(subBucketBits + octaves)) - 1

    private(set) var buckets = [Int](repeating: 0, count: bucketCount)
    private(set) var count = 0

    /// Counts one value.
    mutating func record(micros: UInt64) {
        buckets[Self.bucketIndex(min(micros, Self.maxTrackedMicros))] += 1
        count += 1
    }

    /// The value at quantile `q` (0…1; 0.5 is the median, 0.99 the 99th percentile): the highest
    /// value of the bucket holding the ⌈q·count⌉-th smallest value. Nil when nothing was recorded.
    func quantileMicros(_ q: Double) -> UInt64? {
        guard count > 0 else { return nil }
        let rank = max(1, min(count, Int((q * Double(count)).rounded(.up))))
        var seen = 0
        for (index, n) in buckets.enumerated() where n > 0 {
            seen += n
            if seen >= rank { return Self.highestValue(inBucket: index) }
        }
        return Self.highestValue(inBucket: Self.bucketCount - 1)
    }

    /// The bucket of `micros` (at most `maxTrackedMicros`).
    static func bucketIndex(_ micros: UInt64) -> Int {
        guard micros >= UInt64(subBucketCount) else { return Int(micros) }
        let exponent = UInt64.bitWidth - 1 - micros.leadingZeroBitCount  // ≥ subBucketBits
        let shift = exponent - subBucketBits
        let sub = Int(micros >> UInt64(shift)) - subBucketCount           // 0..<subBucketCount
        return subBucketCount + shift * subBucketCount + sub
    }

    /// The largest value that falls in bucket `index`.
    static func highestValue(inBucket index: Int) -> UInt64 {
        guard index >= subBucketCount else { return UInt64(index) }
        let shift = (index - subBucketCount) / subBucketCount
        let sub = (index - subBucketCount) % subBucketCount
        let lowest = UInt64(subBucketCount + sub) << UInt64(shift)
        return lowest + (1 << UInt64(shift)) - 1
    }
}
