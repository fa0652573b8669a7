/// What a `--db` value may hold that no message may repeat (protocol.md, section 9: a PostgreSQL
/// URI may hold a password), removed from a text that may quote it: the one filter every message
/// that can carry a `--db` value goes through, ours (`shop-rpc`'s start-up errors) and libpq's
/// (`PostgreSQLConnection`'s connect errors, which quote a malformed URI, part of one or a bad
/// percent-encoded token verbatim).
///
/// `redact` removes, in any text:
/// - the whole value, verbatim, percent-decoded, and with its scheme in lower case (what
///   `ShopService.open` hands libpq), when the value is a URI: replaced by `uriMark`;
/// - the password of its userinfo (`postgres://user:PASSWORD@host`) and the value of every
///   `password=` parameter or keyword (`?password=…&`, `password='…'`), each verbatim and
///   percent-decoded: replaced by `passwordMark`.
///
/// The userinfo is found two ways, as libpq finds it (up to the first `@` before any `/`) and up
/// to the last `@`, so a password holding `/` or `@`, or a URI too malformed for libpq to split,
/// is still caught. A text is redacted more than needed rather than less: a one-letter password is
/// replaced wherever that letter stands. A value without a password and without a scheme (a
/// SQLite path) leaves every text as it is.
///
/// ```swift
/// let redaction = ConnectionStringRedaction(connectionString: "postgres://shop:s3cret@db/shop")
/// redaction.redact("password authentication failed: s3cret")  // "… failed: [password]"
/// ```
///
/// Immutable; `Sendable`.
package struct ConnectionStringRedaction: Sendable {
    /// What stands in for a password.
    package static let passwordMark = "[password]"
    /// What stands in for the whole `--db` value.
    package static let uriMark = "[the --db URI]"

    /// The texts to replace and what replaces each, longest first (so a password inside the whole
    /// value does not cut it before it is found).
    private let replacements: [(secret: String, mark: String)]

    package init(connectionString value: String) {
        var found: [(String, String)] = []
        func add(_ secret: String, _ mark: String) {
            for form in [secret, Self.percentDecoded(secret)] where !form.isEmpty {
                found.append((form, mark))
            }
        }
        if let separator = value.firstRange(of: "://") {
            let scheme = value[..<separator.lowerBound]
            add(value, Self.uriMark)
            add(scheme.lowercased() + value[separator.lowerBound...], Self.uriMark)
            let rest = value[separator.upperBound...]
            var userinfos: [Substring] = []
            if let at = rest.firstIndex(where: { $0 == "@" || $0 == "/" }), rest[at] == "@" { userinfos.append(rest[..<at]) }
            if let at = rest.lastIndex(of: "@") { userinfos.append(rest[..<at]) }
            for userinfo in userinfos {
                if let colon = userinfo.firstIndex(of: ":") { add(String(userinfo[userinfo.index(after: colon)...]), Self.passwordMark) }
            }
        } else if ["postgres:", "postgresql:"].contains(where: value.lowercased().hasPrefix) {
            // `postgresql:/shop`, a slash short: refused before libpq, and never quoted either.
            add(value, Self.uriMark)
        }
        for secret in Self.passwordParameters(in: value) { add(secret, Self.passwordMark) }
        replacements = found.sorted { $0.0.count > $1.0.count }
    }

    /// `text` without any of the value's secrets.
    package func redact(_ text: String) -> String {
        var text = text
        for (secret, mark) in replacements where text.contains(secret) {
            text = text.replacing(secret, with: mark)
        }
        return text
    }

    // MARK: - Finding the secrets

    /// The values of every `password=` in `value`, however it is delimited: up to `&` or `#` (a
    /// URI's query), up to white space (a `key=value` string), and between quotes (`'…'`, with
    /// `\'` and `\\` unescaped). A keyword in any case counts.
    static func passwordParameters(in value: String) -> [String] {
        let lowered = Array(value.lowercased().utf8)
        let bytes = Array(value.utf8)
        let keyword = Array("password".utf8)
        var secrets: [String] = []
        var index = 0
        while index + keyword.count <= lowered.count {
            defer { index += 1 }
            guard lowered[index..<index + keyword.count].elementsEqual(keyword) else { continue }
            var cursor = index + keyword.count
            while cursor < bytes.count, bytes[cursor] == UInt8(ascii: " ") { cursor += 1 }
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "=") else { continue }
            cursor += 1
            while cursor < bytes.count, bytes[cursor] == UInt8(ascii: " ") { cursor += 1 }
            let rest = bytes[cursor...]
            if rest.first == UInt8(ascii: "'") {
                var unquoted: [UInt8] = []
                var position = rest.startIndex + 1
                while position < rest.endIndex, rest[position] != UInt8(ascii: "'") {
                    if rest[position] == UInt8(ascii: "\\"), position + 1 < rest.endIndex { position += 1 }
                    unquoted.append(rest[position])
                    position += 1
                }
                secrets.append(String(decoding: unquoted, as: UTF8.self))
                secrets.append(String(decoding: rest[rest.startIndex..<min(position + 1, rest.endIndex)], as: UTF8.self))
            }
            for stops in ["&#", " \t\n&#"] {
                let stopBytes = Array(stops.utf8)
                let end = rest.firstIndex(where: { stopBytes.contains($0) }) ?? rest.endIndex
                secrets.append(String(decoding: rest[..<end], as: UTF8.self))
            }
        }
        return secrets
    }

    /// `text` with every valid `%XX` decoded (an invalid one, such as `%zz`, kept as it is).
    static func percentDecoded(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
