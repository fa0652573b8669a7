import FoundationEssentials

/// A moment to compare order times with (`shop-rpc export orders --since`), given in ISO 8601:
/// a date and time with a zone (`2026-11-23T10:00:00Z`, `2026-11-23T11:00:00.250+01:00`), or a
/// date alone, meaning its midnight UTC (`2026-11-23`). Immutable value; `Sendable`.
public struct OrderTime: Sendable, Equatable {
    /// The moment as an order's `createdAt` is written (`OrderStamp.timestamp`): UTC with
    /// milliseconds. Stamps of that one form compare as text in time order.
    let stamp: String

    /// Nil when `text` is none of the accepted forms.
    public init?(iso8601 text: String) {
        let trimmed = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        let styles: [Date.ISO8601FormatStyle] = [
            Date.ISO8601FormatStyle(includingFractionalSeconds: true),
            Date.ISO8601FormatStyle(),
            Date.ISO8601FormatStyle().year().month().day(),
        ]
        for style in styles {
            if let date = try? style.parse(trimmed) {
                // To the nearest millisecond, then half a millisecond on: the stamp's formatting
                // truncates, and a parsed .123 may be held as .12299….
                let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
                stamp = OrderStamp.timestamp(Date(timeIntervalSince1970: (milliseconds + 0.5) / 1000))
                return
            }
        }
        return nil
    }
}
