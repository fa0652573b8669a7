/// How many requests may be outstanding to the inventory service now: a limit between 1 and
/// `ceiling` (`--inventory-max-concurrent`) that follows the service's measured latency, so checks
/// wait (and are shed) here instead of piling up in a saturated service's own queue.
///
/// The algorithm is a gradient in the manner of Netflix's Gradient2, with fixed constants
/// (protocol.md, "Live inventory", and docs/scaling.md say the same):
/// - every request that got an answer, or that its checks' deadlines cut off, is a latency sample;
/// - `recent` is an exponentially weighted mean of the samples (weight `recentWeight`);
/// - `baseline`, the no-load latency, is the lowest sample seen, creeping up by `baselineDrift` of
///   the difference with each higher sample, so a service that has become slower for good is
///   eventually taken as it is;
/// - `gradient = clamp(tolerated ÷ recent, minimumGradient, 1)`, where `tolerated` is `tolerance`
///   times the baseline but at least the baseline plus `jitterAllowanceNs` (so the jitter of a
///   service answering in a millisecond or two does not read as a slowdown): 1 while the service
///   answers within that, less as it slows down;
/// - after each sample the limit moves `smoothing` of the way to `limit × gradient + √limit`
///   (the square root lets it grow while the service keeps up, and keeps a small queue), clamped
///   to 1…`ceiling`.
///
/// With `adaptive: false` the limit is always `ceiling` (`--inventory-limit fixed`). A value type; the
/// owner serializes access (`InventoryFlightTable` owns it, behind `HTTPInventorySource`'s lock).
struct InventoryAdaptiveLimit: Sendable, Equatable {
    static let tolerance = 2.0
    static let recentWeight = 0.25
    static let baselineDrift = 1.0 / 256
    static let minimumGradient = 0.5
    static let smoothing = 0.2
    static let jitterAllowanceNs = 10_000_000.0

    let ceiling: Int
    let adaptive: Bool
    /// The limit before rounding down; starts at the ceiling.
    private(set) var estimate: Double
    /// The no-load latency in nanoseconds; nil before the first sample.
    private(set) var baselineNs: Double?
    /// The recent latency in nanoseconds; nil before the first sample.
    private(set) var recentNs: Double?

    init(ceiling: Int, adaptive: Bool = true) {
        self.ceiling = max(1, ceiling)
        self.adaptive = adaptive
        estimate = Double(self.ceiling)
    }

    /// The limit in force: whole requests, 1…`ceiling`.
    var limit: Int {
        adaptive ? min(ceiling, max(1, Int(estimate))) : ceiling
    }

    /// Takes one latency sample and moves the limit.
    mutating func record(latencyNs: UInt64) {
        let sample = Double(max(1, latencyNs))
        let baseline: Double
        if let old = baselineNs, sample >= old {
            baseline = old + (sample - old) * Self.baselineDrift
        } else {
            baseline = sample
        }
        let recent = recentNs.map { $0 + (sample - $0) * Self.recentWeight } ?? sample
        baselineNs = baseline
        recentNs = recent
        guard adaptive else { return }
        let tolerated = max(Self.tolerance * baseline, baseline + Self.jitterAllowanceNs)
        let gradient = min(1, max(Self.minimumGradient, tolerated / recent))
        let target = estimate * gradient + estimate.squareRoot()
        estimate = min(Double(ceiling), max(1, estimate + (target - estimate) * Self.smoothing))
    }
}
