/// A query parameter, sent in libpq's text format (`nil` is SQL NULL).
protocol PostgreSQLValue {
    var postgresText: String? { get }
}

extension String: PostgreSQLValue {
    /// The string as stored: `PostgreSQLText.escaped`, so ids holding NUL survive.
    var postgresText: String? { PostgreSQLText.escaped(self) }
}

extension Int: PostgreSQLValue {
    var postgresText: String? { String(self) }
}

extension Int64: PostgreSQLValue {
    var postgresText: String? { String(self) }
}

extension Optional: PostgreSQLValue where Wrapped: PostgreSQLValue {
    var postgresText: String? { self?.postgresText }
}

// MARK: - PostgreSQLText

/// How the PostgreSQL store keeps strings that PostgreSQL's `text` cannot hold: a NUL character
/// is stored as `\0` and a backslash as `\\`, every other character as itself. Injective, so
/// client ids that differ only in a NUL stay different (as in the SQLite store); the identity on
/// the seeded catalog and on search terms (letters and digits only).
enum PostgreSQLText {
    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0 || $0 == UInt8(ascii: "\\") }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\0": result += "\\0"
            case "\\": result += "\\\\"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func unescaped(_ stored: String) -> String {
        guard stored.utf8.contains(UInt8(ascii: "\\")) else { return stored }
        var result = ""
        var escaping = false
        for scalar in stored.unicodeScalars {
            if escaping {
                result.unicodeScalars.append(scalar == "0" ? "\0" : scalar)
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
