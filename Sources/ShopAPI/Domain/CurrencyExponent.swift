/// How many decimal digits a currency's minor unit has (ISO 4217's "minor unit" column): 2 for
/// USD and EUR (a cent is 1/100), 0 for JPY and KRW, 3 for KWD and BHD, 4 for CLF. A price in
/// major units (`19.99`) is worth `19.99 × 10^exponent` minor units (`priceCents`: 1999).
///
/// The table is ISO 4217 List One ("Current currency & funds code list"), published by the
/// standard's maintenance agency, SIX Financial Information (six-group.com, "ISO 4217 currency
/// codes"), as amended up to 2025 (XCG and ZWG included), plus codes withdrawn recently that files
/// still carry (ANG, CUC, HRK, SLL, ZWL), with the minor unit they had. Checked code by code
/// against List One as published on 2024-06-25 (its XML's `CcyMnrUnts`): every code of that list
/// that has a minor unit is here with the same digits, and the only codes here that it lacks are
/// XCG (added after it) and HRK, SLL and ZWL (withdrawn before it). Codes the list gives no
/// minor unit ("N.A.": XAU, XAG, XPD, XPT, XDR, XBA…XBD, XSU, XUA, XTS, XXX) are not here: such a
/// currency has no major-unit price to convert. Immutable value; `Sendable`.
public struct CurrencyExponent: Sendable, Equatable {
    /// Decimal digits of the minor unit: 0…4.
    public let digits: Int

    /// The exponent of `code` (three capital letters), or nil for a code the table does not have.
    public init?(code: String) {
        if let digits = Self.exceptions[code] {
            self.digits = digits
        } else if Self.twoDigitCodes.contains(code) {
            self.digits = 2
        } else {
            return nil
        }
    }

    /// `10^digits`: how many minor units make one major unit (100 for USD, 1 for JPY).
    public var minorUnitsPerMajorUnit: Int {
        var value = 1
        for _ in 0..<digits { value *= 10 }
        return value
    }

    // MARK: - ISO 4217 List One

    /// Every code whose minor unit is not 2 digits.
    private static let exceptions: [String: Int] = [
        // 0 digits
        "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0, "RWF": 0,
        "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
        // 3 digits
        "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
        // 4 digits
        "CLF": 4, "UYW": 4,
    ]

    /// Every code whose minor unit is 2 digits.
    private static let twoDigitCodes: Set<String> = [
        "AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT", "BGN", "BMD",
        "BND", "BOB", "BOV", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD", "CAD", "CDF", "CHE", "CHF", "CHW", "CNY",
        "COP", "COU", "CRC", "CUC", "CUP", "CVE", "CZK", "DKK", "DOP", "DZD", "EGP", "ERN", "ETB", "EUR", "FJD",
        "FKP", "GBP", "GEL", "GHS", "GIP", "GMD", "GTQ", "GYD", "HKD", "HNL", "HRK", "HTG", "HUF", "IDR", "ILS",
        "INR", "IRR", "JMD", "KES", "KGS", "KHR", "KPW", "KYD", "KZT", "LAK", "LBP", "LKR", "LRD", "LSL", "MAD",
        "MDL", "MGA", "MKD", "MMK", "MNT", "MOP", "MRU", "MUR", "MVR", "MWK", "MXN", "MXV", "MYR", "MZN", "NAD",
        "NGN", "NIO", "NOK", "NPR", "NZD", "PAB", "PEN", "PGK", "PHP", "PKR", "PLN", "QAR", "RON", "RSD", "RUB",
        "SAR", "SBD", "SCR", "SDG", "SEK", "SGD", "SHP", "SLE", "SLL", "SOS", "SRD", "SSP", "STN", "SVC", "SYP",
        "SZL", "THB", "TJS", "TMT", "TOP", "TRY", "TTD", "TWD", "TZS", "UAH", "USD", "USN", "UYU", "UZS", "VED",
        "VES", "WST", "XCD", "XCG", "YER", "ZAR", "ZMW", "ZWG", "ZWL",
    ]
}
