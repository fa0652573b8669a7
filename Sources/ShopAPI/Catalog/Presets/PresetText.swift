/// The small text rules the platform presets share: trimming, the slugs of derived handles and
/// SKUs, and the shapes of prices, stock levels and category paths. Pure functions.
enum PresetText {
    /// `text` without Unicode white space at either end.
    static func trimmed(_ text: String) -> String {
        // Most cells start and end with a visible ASCII character: nothing to trim.
        if let first = text.utf8.first, let last = text.utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F {
            return text
        }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        if first == scalars.startIndex && last == scalars.index(before: scalars.endIndex) { return text }
        return String(scalars[first...last])
    }

    /// Lower-case ASCII letters and digits of `text`, every other run of characters one `-`, none
    /// at either end: `Blue / XL` is `blue-xl`. Letters outside ASCII are kept as they are
    /// (lower-cased), so `Größe` stays recognisable; control characters are dropped.
    static func slug(_ text: String) -> String {
        var out = ""
        var pendingDash = false
        for scalar in text.lowercased().unicodeScalars {
            let keep = (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9")
                || (!scalar.isASCII && scalar.properties.isAlphabetic)
            if keep {
                if pendingDash && !out.isEmpty { out.append("-") }
                pendingDash = false
                out.unicodeScalars.append(scalar)
            } else {
                pendingDash = true
            }
        }
        return out
    }

    /// A price as the platforms write it, in currency units: digits with at most one `.`
    /// (`19.99`, `29.5`, `45`, `.5`), returned with a leading 0 when it starts with the point
    /// (`0.5`) and without a trailing point (`45.` is `45`). Nil for anything else (a sign, a
    /// comma, letters, nothing): the preset reports it. How many decimals the currency allows is
    /// the import's rule, not this one.
    static func price(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 40 else { return nil }
        var points = 0, digits = 0
        for byte in bytes {
            if byte == UInt8(ascii: ".") { points += 1 } else if byte >= 48 && byte <= 57 { digits += 1 } else { return nil }
        }
        guard points <= 1, digits > 0 else { return nil }
        var result = text
        if result.hasPrefix(".") { result = "0" + result }
        if result.hasSuffix(".") { result.removeLast() }
        return result
    }

    /// A stock level: an optional `-` and digits. Returns the level, with one below zero read as
    /// 0 (`wasNegative`), or nil when it is not a whole number or has more than 15 digits.
    static func stock(_ text: String) -> (level: String, wasNegative: Bool)? {
        var digits = Substring(text)
        let negative = digits.hasPrefix("-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 15, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        let value = Int(digits)!
        if negative && value > 0 { return ("0", true) }
        return (String(value), false)
    }

    /// The category a product gets from category paths (`A > B`): `paths` is the platform's
    /// list, and the deepest path wins (the first of the deepest), written `A > B` with single
    /// spaces; when that is longer than a category may be (64 characters), its last level alone.
    /// Nil when there is no path.
    static func category(fromPaths paths: [String]) -> String? {
        var best: [String] = []
        for path in paths {
            let levels = path.split(separator: ">").map { trimmed(String($0)) }.filter { !$0.isEmpty }
            if levels.count > best.count { best = levels }
        }
        guard let last = best.last else { return nil }
        let whole = best.joined(separator: " > ")
        return whole.unicodeScalars.count <= CatalogLimits.maxIdentifierLength ? whole : last
    }

    /// What the platforms call a product without a category (WooCommerce files them under it).
    static let uncategorized = "Uncategorized"
}
