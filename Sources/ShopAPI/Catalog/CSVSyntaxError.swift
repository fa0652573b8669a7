/// What is structurally wrong with one CSV record (RFC 4180). The reader reports it on the record
/// where it happens and goes on with the next record, except where noted.
package enum CSVSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input ended inside a quoted field; ends the reading.
    case unterminatedQuote
    /// A quoted field's closing quote is followed by something other than the delimiter or the
    /// end of the line (a quote inside a quoted field is written as two quotes).
    case characterAfterClosingQuote
    /// The record is longer than `CatalogLimits.maxRecordBytes`; ends the reading (this is
    /// nearly always a quote that is never closed).
    case recordTooLong(limit: Int)

    package var description: String {
        switch self {
        case .unterminatedQuote:
            return "a quoted field is not closed before the end of the file"
        case .characterAfterClosingQuote:
            return "a closing quote must be followed by a comma or the end of the line (write a quote inside a quoted field as \"\")"
        case .recordTooLong(let limit):
            return "the record is longer than \(limit) bytes (is a quote left open?)"
        }
    }

    /// Whether the reader stops after this error.
    package var endsReading: Bool {
        switch self {
        case .unterminatedQuote, .recordTooLong: return true
        case .characterAfterClosingQuote: return false
        }
    }
}
