import Dispatch

/// The monotonic clock the engine times calls with (`DispatchTime.uptimeNanoseconds`), and the
/// arithmetic on it that more than one place needs, written once. Stateless; any thread.
enum Uptime {
    /// Now, in nanoseconds of uptime.
    static var nowNanos: UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Nanoseconds from `startNanos` (an earlier `nowNanos`) until now.
    static func nanosSince(_ startNanos: UInt64) -> UInt64 { nowNanos &- startNanos }

    /// Whole milliseconds from `startNanos` (an earlier `nowNanos`) until now.
    static func millisecondsSince(_ startNanos: UInt64) -> Int { Int(nanosSince(startNanos) / 1_000_000) }

    /// `milliseconds` (at least 1) after `startNanos`, or `.max` when that is too far to represent
    /// (a deadline of `Int.max` ms is no deadline).
    static func nanos(_ startNanos: UInt64, plusMilliseconds milliseconds: Int) -> UInt64 {
        let (span, spanOverflow) = UInt64(max(1, milliseconds)).multipliedReportingOverflow(by: 1_000_000)
        let (end, endOverflow) = startNanos.addingReportingOverflow(span)
        return spanOverflow || endOverflow ? .max : end
    }
}
