/// Time arithmetic for the inventory client on one timeline: nanoseconds of the source's clock
/// (`DispatchTime.uptimeNanoseconds` in production), with `noDeadline` (`UInt64.max`, what
/// `DispatchTime.distantFuture` holds) for "never". Every function saturates: none traps or wraps,
/// whatever a deadline or a measured latency is. Pure functions; thread-safe.
enum InventoryTime {
    /// A deadline that never comes.
    static let noDeadline = UInt64.max
    static let nanosecondsPerMillisecond: UInt64 = 1_000_000

    /// `time` plus `nanoseconds`, at most `noDeadline`.
    static func adding(_ nanoseconds: UInt64, to time: UInt64) -> UInt64 {
        let (sum, overflow) = time.addingReportingOverflow(nanoseconds)
        return overflow ? noDeadline : sum
    }

    /// `time` plus a measured duration (rounded down; a negative or NaN one adds nothing).
    static func adding(_ nanoseconds: Double, to time: UInt64) -> UInt64 {
        guard nanoseconds >= 1 else { return time }
        return nanoseconds >= Double(UInt64.max) ? noDeadline : adding(UInt64(nanoseconds), to: time)
    }

    /// `milliseconds` in nanoseconds (a negative count is 0).
    static func nanoseconds(milliseconds: Int) -> UInt64 {
        let (product, overflow) = UInt64(max(0, milliseconds)).multipliedReportingOverflow(by: nanosecondsPerMillisecond)
        return overflow ? noDeadline : product
    }

    /// How long from `now` until `deadline`; 0 once it has passed.
    static func left(until deadline: UInt64, now: UInt64) -> UInt64 {
        deadline > now ? deadline - now : 0
    }

    /// The whole milliseconds left until `deadline` (rounded down, 0 once it has passed), or nil
    /// without a deadline: what `X-Request-Timeout-Ms` carries.
    static func millisecondsLeft(until deadline: UInt64, now: UInt64) -> Int? {
        guard deadline != noDeadline else { return nil }
        return Int(left(until: deadline, now: now) / nanosecondsPerMillisecond)
    }

    /// A moment shortly before `deadline`: `milliseconds` before it, or, if that is less, a quarter
    /// of the time left at `now` (so a short budget keeps three quarters of itself); `deadline`
    /// itself when there is none.
    static func shortlyBefore(_ deadline: UInt64, milliseconds: Int, now: UInt64) -> UInt64 {
        guard deadline != noDeadline else { return deadline }
        return deadline - min(nanoseconds(milliseconds: milliseconds), left(until: deadline, now: now) / 4)
    }
}
