/// Something an import found legal but probably a mistake (protocol.md, section 9, "Warnings"):
/// its kind, how many rows or columns it concerns, the first few lines where it was seen, and a
/// sentence saying what it means. `--strict` makes each one an error. Immutable value; `Sendable`.
public struct CatalogImportWarning: Codable, Sendable, Equatable {
    /// What kind of thing was found; the raw values are the `kind` members protocol.md lists.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// New products the file gives no stock: they start at 0 and cannot be ordered.
        case newProductsWithoutStock
        /// Every `priceCents` value is below one major unit of the currency (under 1.00 USD):
        /// probably prices in units (`45` for 45.00) written into the minor-units column.
        case priceCentsBelowOneUnit
        /// A column the import does not know, skipped (`--ignore-unknown`, or a preset's).
        case ignoredColumn
        /// A header cell with white space around its name, read without it.
        case trimmedHeader
    }

    public var kind: Kind
    /// The file's column the warning is about (as the file spells it), for column kinds.
    public var column: String?
    /// How many rows (or, for column kinds, 1) the warning concerns.
    public var count: Int
    /// The first `maxLines` lines concerned, in file order.
    public var lines: [Int]
    /// What it means, in a sentence.
    public var message: String

    /// The field `--strict`'s errors name: the column, `stock` for new products without
    /// stock, else `row`.
    var field: String {
        column ?? (kind == .newProductsWithoutStock ? "stock" : "row")
    }

    /// How many lines a warning lists at most.
    public static let maxLines = 5

    public init(kind: Kind, column: String? = nil, count: Int, lines: [Int], message: String) {
        self.kind = kind
        self.column = column
        self.count = count
        self.lines = lines
        self.message = message
    }

    /// `FILE:LINE: warning: kind: message`, at the first line listed; when it concerns more than
    /// one row, ` (N rows: lines A, B, …)` follows.
    public func formatted(file: String) -> String {
        let line = lines.first.map { ":\($0)" } ?? ""
        var text = "\(file)\(line): warning: \(kind.rawValue): \(message)"
        if count > 1 {
            text += " (\(count) rows: line\(lines.count == 1 ? "" : "s") \(lines.map(String.init).joined(separator: ", "))\(lines.count < count ? ", …" : ""))"
        }
        return text
    }

    /// The warning as one JSON object, members in this order:
    /// `{"kind","column"?,"count","lines","message"}`.
    var json: String {
        var text = "{\"kind\":\"\(kind.rawValue)\""
        if let column { text += ",\"column\":" + Self.jsonString(column) }
        text += ",\"count\":\(count),\"lines\":[\(lines.map(String.init).joined(separator: ","))],\"message\":" + Self.jsonString(message) + "}"
        return text
    }

    /// `value` as a JSON string: quotes, backslashes and control characters escaped.
    private static func jsonString(_ value: String) -> String {
        var text = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        return text + "\""
    }
}

// MARK: - Collecting

extension [CatalogImportWarning] {
    /// Counts one more occurrence of `kind` (for `column`) on `line`, adding the warning the
    /// first time.
    mutating func note(_ kind: CatalogImportWarning.Kind, column: String? = nil, line: Int, message: String) {
        if let index = firstIndex(where: { $0.kind == kind && $0.column == column }) {
            self[index].count += 1
            if self[index].lines.count < CatalogImportWarning.maxLines { self[index].lines.append(line) }
        } else {
            append(CatalogImportWarning(kind: kind, column: column, count: 1, lines: [line], message: message))
        }
    }
}
