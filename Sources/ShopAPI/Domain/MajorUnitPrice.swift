/// A price written in a currency's major units, as text (`19.99`, `500`, `1.234`), read exactly:
/// the digits before the point and those after it are kept as integers, never as a binary
/// floating-point number. Converting it to minor units needs the currency's exponent
/// (`minorUnits(exponent:)`), which is known only once the row's currency is.
///
/// The text is ASCII digits with at most one `.` between digits (`19.99`, `45.00`, `500`); no
/// sign, no exponent, no thousands separator, no white space. Immutable value; `Sendable`.
public struct MajorUnitPrice: Sendable, Equatable, CustomStringConvertible {
    /// The digits before the point, as a number (at most `maxWholeUnits`).
    public let wholeUnits: Int
    /// The digits after the point as written, trailing zeros included (`"00"` in `45.00`).
    public let fraction: [UInt8]

    /// The largest number of whole units a price may have: that of `CatalogLimits.maxPriceCents`
    /// in a currency without minor units, so every price in range reads.
    public static let maxWholeUnits = CatalogLimits.maxPriceCents

    /// The price as written (`19.99`).
    public var description: String {
        fraction.isEmpty ? "\(wholeUnits)" : "\(wholeUnits)." + String(decoding: fraction, as: UTF8.self)
    }

    /// Why a text is not a price, as a message for `FILE:LINE: price: message`.
    public struct ParseError: Error, Equatable, Sendable {
        public let message: String
    }

    /// Reads `bytes` (the cell's, or the JSON string's, text).
    public static func parse(_ bytes: some Collection<UInt8>) -> Result<MajorUnitPrice, ParseError> {
        let text = { CatalogFieldRules.quoted(String(decoding: Array(bytes), as: UTF8.self)) }
        if bytes.isEmpty { return .failure(ParseError(message: "empty; a price such as 19.99 is needed")) }
        if bytes.first == UInt8(ascii: "-") { return .failure(ParseError(message: "\(text()) is negative")) }
        var whole = 0
        var wholeDigits = 0
        var fraction: [UInt8] = []
        var seenPoint = false
        var tooLarge = false
        for byte in bytes {
            if byte == UInt8(ascii: ".") && !seenPoint {
                seenPoint = true
                continue
            }
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else {
                let hint = byte == UInt8(ascii: ",") ? " (write the decimal point as . and no thousands separator)" : ""
                return .failure(ParseError(message: "\(text()) is not a price such as 19.99\(hint)"))
            }
            if seenPoint {
                guard fraction.count < 18 else { return .failure(ParseError(message: "\(text()) has too many decimals")) }
                fraction.append(byte)
            } else {
                wholeDigits += 1
                if whole > maxWholeUnits { tooLarge = true } else { whole = whole * 10 + Int(byte - UInt8(ascii: "0")) }
            }
        }
        if wholeDigits == 0 || (seenPoint && fraction.isEmpty) {
            return .failure(ParseError(message: "\(text()) is not a price such as 19.99 (digits are needed on both sides of the point)"))
        }
        if tooLarge || whole > maxWholeUnits {
            return .failure(ParseError(message: "\(text()) is above the maximum price"))
        }
        return .success(MajorUnitPrice(wholeUnits: whole, fraction: fraction))
    }

    /// The price in minor units of a currency whose minor unit has `exponent` digits, or the
    /// message saying why it has none: more decimals than the currency has (`17.999` in USD; a
    /// trailing zero counts, so write `45.00`, not `45.000`), or above `maxMinorUnits`.
    public func minorUnits(exponent: CurrencyExponent, currency: String, maxMinorUnits: Int = CatalogLimits.maxPriceCents) -> Result<Int, ParseError> {
        guard fraction.count <= exponent.digits else {
            let has = exponent.digits == 0 ? "has no minor unit" : "has \(exponent.digits) decimal\(exponent.digits == 1 ? "" : "s")"
            return .failure(ParseError(message: "\(self) has \(fraction.count) decimal\(fraction.count == 1 ? "" : "s"), but \(currency) \(has)"))
        }
        // whole ≤ 10^12 and the scale ≤ 10^4: no overflow.
        var value = wholeUnits * exponent.minorUnitsPerMajorUnit
        var scale = exponent.minorUnitsPerMajorUnit
        for digit in fraction {
            scale /= 10
            value += Int(digit - UInt8(ascii: "0")) * scale
        }
        guard value <= maxMinorUnits else {
            return .failure(ParseError(message: "\(self) \(currency) is above the maximum, \(maxMinorUnits) minor units"))
        }
        return .success(value)
    }
}
