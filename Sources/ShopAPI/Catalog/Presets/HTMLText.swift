/// The plain text of a product description written in HTML (Shopify's `Body (HTML)`,
/// WooCommerce's descriptions): tags removed, the end of a block (`</p>`, `<br>`, `</li>`,
/// `</div>`, `</h1>`…`</h6>`, `</tr>`) a line break, runs of blank lines one, white space at
/// either end trimmed, and the entities `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` `&#39;` `&nbsp;`
/// and numeric ones (`&#233;`, `&#xE9;`) decoded. Text between `<script>` or `<style>` tags is
/// dropped. A `<` not followed by a letter, `/` or `!` is text (`a < b`), and so is one no `>`
/// follows, and an `&` that starts no entity above. Pure; linear in the text's length.
enum HTMLText {
    static func plainText(_ html: String) -> String {
        guard html.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) else {
            return PresetText.trimmed(html)
        }
        let scalars = Array(html.unicodeScalars)
        // A `<` after the last `>` starts no tag: known without scanning to the end for each one.
        let lastClose = scalars.lastIndex(of: ">") ?? -1
        var out = String.UnicodeScalarView()
        var index = 0
        var skippingUntil: String?  // "script" or "style": their text is not description
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "<", index < lastClose, Self.startsTag(scalars[index + 1]) {
                let close = scalars[index...].firstIndex(of: ">")!
                let tag = Self.tagName(scalars[(index + 1)..<close])
                if let skipped = skippingUntil {
                    if tag.closing && tag.name == skipped { skippingUntil = nil }
                } else if !tag.closing && (tag.name == "script" || tag.name == "style") {
                    skippingUntil = tag.name
                } else if Self.breaksLine(tag) {
                    out.append("\n")
                }
                index = close + 1
                continue
            }
            if skippingUntil != nil {
                index += 1
                continue
            }
            if scalar == "&", let (decoded, length) = Self.entity(scalars, at: index) {
                out.append(decoded)
                index += length
                continue
            }
            out.append(scalar)
            index += 1
        }
        return Self.tidyLines(String(out))
    }

    private static func startsTag(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "/" || scalar == "!" || (scalar.isASCII && scalar.properties.isAlphabetic)
    }

    private static func tagName(_ inside: ArraySlice<Unicode.Scalar>) -> (name: String, closing: Bool) {
        var rest = inside[...]
        let closing = rest.first == "/"
        if closing { rest = rest.dropFirst() }
        let name = rest.prefix { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
        return (String(String.UnicodeScalarView(name)).lowercased(), closing)
    }

    private static let blockEnds: Set<String> = ["p", "li", "div", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "ul", "ol", "table", "blockquote"]

    private static func breaksLine(_ tag: (name: String, closing: Bool)) -> Bool {
        tag.name == "br" || (tag.closing && blockEnds.contains(tag.name))
    }

    private static let named: [String: Unicode.Scalar] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " "]

    /// The character an entity at `index` stands for, and the entity's length; nil if none is there.
    private static func entity(_ scalars: [Unicode.Scalar], at index: Int) -> (Unicode.Scalar, Int)? {
        let limit = min(scalars.count, index + 12)
        guard let end = scalars[index..<limit].firstIndex(of: ";") else { return nil }
        let body = String(String.UnicodeScalarView(scalars[(index + 1)..<end]))
        let length = end - index + 1
        if let scalar = named[body] { return (scalar, length) }
        guard body.hasPrefix("#") else { return nil }
        let number = body.dropFirst()
        let value: UInt32? = number.hasPrefix("x") || number.hasPrefix("X")
            ? UInt32(number.dropFirst(), radix: 16) : UInt32(number, radix: 10)
        guard let value, value != 0, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }

    /// Each line without white space at its end, runs of blank lines as one, and the whole trimmed.
    private static func tidyLines(_ text: String) -> String {
        var lines: [Substring] = []
        var blank = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let tidy = Substring(PresetText.trimmed(String(line)))
            if tidy.isEmpty {
                if !lines.isEmpty { blank = true }
                continue
            }
            if blank { lines.append("") }
            blank = false
            lines.append(tidy)
        }
        return lines.joined(separator: "\n")
    }
}
