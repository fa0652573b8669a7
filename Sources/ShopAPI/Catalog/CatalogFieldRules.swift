#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The file-level rules for one value of a catalog file, shared by the CSV and NDJSON readers
/// (protocol.md, "Catalog files"). Each check returns nil when the value is good, else the
/// message of the error (without the line and field, which the reader adds).
enum CatalogFieldRules {
    /// `sku` and `category`: 1…64 characters, no control characters (C0, DEL and C1: a CSV export
    /// writes those as U+FFFD, which would make an exported SKU another SKU when read back), no
    /// white space at either end.
    static func checkIdentifier(_ value: String) -> String? {
        if value.isEmpty { return "empty" }
        if let lengthError = checkLength(value, max: CatalogLimits.maxIdentifierLength) { return lengthError }
        if containsControlCharacter(value) { return "contains a control character" }
        if isWhitespace(value.unicodeScalars.first!) || isWhitespace(value.unicodeScalars.last!) {
            return "\(quoted(value)) begins or ends with white space"
        }
        return nil
    }

    /// The rule of a text column's value: nil when it is good, else the message.
    static func check(_ column: CatalogColumn, _ value: String) -> String? {
        switch column {
        case .sku, .category, .handle: return checkIdentifier(value)
        case .option1Name, .option1Value, .option2Name, .option2Value, .option3Name, .option3Value: return checkIdentifier(value)
        case .name: return checkName(value)
        case .description: return checkDescription(value)
        case .brand: return checkBrand(value)
        case .status: return checkStatus(value)
        case .currency: return checkCurrency(value)
        case .priceCents, .stock, .price: return nil
        }
    }

    /// `brand`: 0…255 characters, no control characters.
    static func checkBrand(_ value: String) -> String? {
        if let lengthError = checkLength(value, max: CatalogLimits.maxNameLength) { return lengthError }
        if containsControlCharacter(value) { return "contains a control character" }
        return nil
    }

    /// `status`: active, draft or archived.
    static func checkStatus(_ value: String) -> String? {
        ProductStatus(rawValue: value) == nil ? "\(quoted(value)) is not a status (\(ProductStatus.acceptedList))" : nil
    }

    /// Whether `value` holds a control character: C0 (U+0000…U+001F), DEL or C1 (U+0080…U+009F),
    /// Unicode's general category Cc. Read byte by byte, as an import checks every row's.
    static func containsControlCharacter(_ value: String) -> Bool {
        value.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) || containsC1Control(value)
    }

    /// Whether `value` holds U+0080…U+009F (in UTF-8, 0xC2 then 0x80…0x9F).
    private static func containsC1Control(_ value: String) -> Bool {
        var previous: UInt8 = 0
        for byte in value.utf8 {
            if previous == 0xC2 && (0x80...0x9F).contains(byte) { return true }
            previous = byte
        }
        return false
    }

    /// `name`: 1…255 characters, not only white space, no NUL.
    static func checkName(_ value: String) -> String? {
        if value.unicodeScalars.allSatisfy(isWhitespace) { return value.isEmpty ? "empty" : "only white space" }
        if let lengthError = checkLength(value, max: CatalogLimits.maxNameLength) { return lengthError }
        if containsNUL(value) { return "contains a NUL character" }
        return nil
    }

    /// `description`: 0…20 000 characters, no NUL.
    static func checkDescription(_ value: String) -> String? {
        if let lengthError = checkLength(value, max: CatalogLimits.maxDescriptionLength) { return lengthError }
        if containsNUL(value) { return "contains a NUL character" }
        return nil
    }

    /// `currency`: three capital letters A–Z (an ISO 4217 code).
    static func checkCurrency(_ value: String) -> String? {
        let utf8 = value.utf8
        if utf8.count == 3 && utf8.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) { return nil }
        return "\(quoted(value)) is not three capital letters (an ISO 4217 code such as USD)"
    }

    /// A row that gives both `price` and `priceCents`.
    static let bothPrices = "the row gives both price (major units, 19.99) and priceCents (minor units, 1999): give one"

    /// Follows "invalid UTF-8": files saved by spreadsheets on Windows are often Windows-1252.
    static let encodingHint = " (if the file was saved by Excel or another Windows program, read it with --encoding windows-1252)"

    /// `priceCents` and `stock`: 0…`max`.
    static func checkRange(_ value: Int, max: Int) -> String? {
        if value < 0 { return "\(value) is negative" }
        if value > max { return "\(value) is above the maximum, \(max)" }
        return nil
    }

    /// The error for a SKU the file gave before (or that the index has no room left to check).
    static func repeatedSKU(_ sku: String, _ insertion: SKUIndex.Insertion) -> String? {
        switch insertion {
        case .new: return nil
        case .repeated(let line): return "\(quoted(sku)) appears twice; first on line \(line)"
        case .full: return "the file has more SKUs than one import can check for repeats (4 GiB of SKUs)"
        }
    }

    /// A CSV cell holding an integer: ASCII digits only (a leading `-` is read, to say the value
    /// is negative), in 0…`max`.
    static func parseInteger(_ bytes: UnsafeBufferPointer<UInt8>, max: Int) -> Result<Int, IntegerError> {
        if bytes.isEmpty { return .failure(IntegerError(message: "empty; an integer is needed")) }
        let negative = bytes[0] == UInt8(ascii: "-")
        let digits = negative ? UnsafeBufferPointer(rebasing: bytes[1...]) : bytes
        var value = 0
        var overflow = false
        for byte in digits {
            let digit = Int(byte) &- 48
            guard digit >= 0 && digit <= 9 else {
                return .failure(IntegerError(message: "\(quoted(String(decoding: bytes, as: UTF8.self))) is not an integer"))
            }
            if value > max { overflow = true } else { value = value * 10 + digit }
        }
        if digits.isEmpty {
            return .failure(IntegerError(message: "\(quoted(String(decoding: bytes, as: UTF8.self))) is not an integer"))
        }
        if negative && (value != 0 || overflow) {
            return .failure(IntegerError(message: "\(String(decoding: bytes, as: UTF8.self)) is negative"))
        }
        if overflow || value > max {
            return .failure(IntegerError(message: "\(String(decoding: bytes, as: UTF8.self)) is above the maximum, \(max)"))
        }
        return .success(value)
    }

    struct IntegerError: Error {
        let message: String
    }

    /// Unicode's White_Space property, without the table look-up for ASCII.
    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == " " || (scalar.value >= 0x09 && scalar.value <= 0x0D) }
        return scalar.properties.isWhitespace
    }

    /// "longer than N characters" when `value` has more than `max` Unicode scalars.
    private static func checkLength(_ value: String, max: Int) -> String? {
        // A string of at most `max` bytes has at most `max` scalars: count only when it may be over.
        guard value.utf8.count > max, value.unicodeScalars.count > max else { return nil }
        return "longer than \(max) characters"
    }

    static func containsNUL(_ value: String) -> Bool {
        var value = value
        return value.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, 0, bytes.count) != nil
        }
    }

    /// `value` in double quotes, cut to 40 characters, control characters escaped: for messages.
    static func quoted(_ value: String) -> String {
        let cut = value.unicodeScalars.count > 40 ? String(String.UnicodeScalarView(value.unicodeScalars.prefix(40))) + "…" : value
        return cut.debugDescription
    }
}
