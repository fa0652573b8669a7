/// What a CSV export writes for a text value, and what the catalog's CSV reader reads back, so
/// that a file opened in a spreadsheet or printed on a terminal shows text as text
/// (protocol.md section 9, "CSV exports and spreadsheets"). Pure; any thread.
///
/// - **Formulas** (OWASP, "CSV Injection"): a value that begins with `=`, `+`, `-`, `@`, TAB or CR
///   is written with a single quote (`'`) in front, which a spreadsheet takes for "this cell is
///   text" and does not show. So that the prefix can be told from a value's own quote, a value
///   that begins with `'` followed by one of those or by another `'` gets one too. The catalog's
///   CSV reader removes exactly that one quote (`restored`), so export → import gives every value
///   back unchanged, and a value such as `'Tis` (a quote and a letter) is written and read as it
///   is. Integers (`priceCents`, `delta`, …) are written as digits by the writer, never as text,
///   so a negative number is never prefixed.
/// - **Control characters**: C0 controls other than TAB, LF and CR (U+0000–U+001F), DEL (U+007F)
///   and C1 controls (U+0080–U+009F) are written as U+FFFD, so no escape sequence reaches a
///   terminal or a spreadsheet; LF and CR inside a value are quoted as RFC 4180 says
///   (`CSVFieldEncoding`), and TAB is kept. This one is lossy on purpose: such a byte in a
///   product's name (an import lets all but NUL in) or in a ledger row written before
///   `_meta.actor` refused them comes back from an export → import as U+FFFD.
enum CSVTextCell {
    /// `value` as a CSV export writes it (before RFC 4180 quoting). The value itself when nothing
    /// applies, which is the usual case and costs one pass over its bytes.
    static func escaped(_ value: String) -> String {
        var value = value
        let (prefix, replace) = value.withUTF8 { bytes in (needsPrefix(bytes), containsReplaced(bytes)) }
        guard prefix || replace else { return value }
        var scalars = String.UnicodeScalarView()
        if prefix { scalars.append("'") }
        for scalar in value.unicodeScalars {
            scalars.append(isReplaced(scalar) ? "\u{FFFD}" : scalar)
        }
        return String(scalars)
    }

    /// A catalog CSV cell as the value it stands for: without the one quote `escaped` put in
    /// front (a cell that begins with `'` and then a formula character or another `'`), else
    /// as it is.
    static func restored(_ cell: String) -> String {
        var cell = cell
        let prefixed = cell.withUTF8 { bytes in bytes.count >= 2 && bytes[0] == quote && (isFormulaStart(bytes[1]) || bytes[1] == quote) }
        return prefixed ? String(cell.dropFirst()) : cell
    }

    // MARK: - Rules

    private static let quote = UInt8(ascii: "'")

    /// `=`, `+`, `-`, `@`, TAB, CR: what a spreadsheet may take for the start of a formula.
    private static func isFormulaStart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "=") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "@")
            || byte == 0x09 || byte == 0x0D
    }

    private static func needsPrefix(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first else { return false }
        if isFormulaStart(first) { return true }
        return first == quote && bytes.count >= 2 && (isFormulaStart(bytes[1]) || bytes[1] == quote)
    }

    /// Whether `bytes` hold a control character `escaped` replaces: a C0 byte other than TAB, LF,
    /// CR; DEL; or 0xC2 followed by 0x80…0x9F (a C1 control in UTF-8).
    private static func containsReplaced(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in bytes.indices {
            let byte = bytes[index]
            if byte < 0x20 {
                if byte != 0x09 && byte != 0x0A && byte != 0x0D { return true }
            } else if byte == 0x7F {
                return true
            } else if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
                return true
            }
        }
        return false
    }

    private static func isReplaced(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }
}
