import FoundationEssentials

/// Identity and time for a new order. Pure functions over their inputs; thread-safe.
enum OrderStamp {
    /// `ord_` followed by 16 lowercase hex digits from the system's secure random source.
    static func randomOrderId() -> String {
        var generator = SystemRandomNumberGenerator()
        let hex = String(generator.next() as UInt64, radix: 16)
        return "ord_" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// ISO 8601 in UTC with milliseconds, e.g. `2026-11-23T10:00:00.123Z`.
    static func timestamp(_ date: Date) -> String {
        date.formatted(utcWithMilliseconds)
    }

    /// UTC as a fixed offset: FoundationEssentials has no time zone database (that is ICU's, in
    /// FoundationInternationalization, which the server does not link), so `TimeZone(identifier:)`
    /// finds no "UTC" there; an offset of zero needs none.
    private static let utcWithMilliseconds = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
}
