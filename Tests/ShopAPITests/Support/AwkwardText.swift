import Foundation
@testable import ShopAPI

/// Seeded random text that is hard on CSV and JSON: quotes, commas, CR, LF, CRLF, leading and
/// trailing spaces, tabs, non-ASCII (accents, CJK, emoji, combining marks), backslashes, and
/// a quote at the start. Deterministic for a seed. A value type.
struct AwkwardText {
    private var random: SplitMix64
    private static let pieces = ["a", "b", "Z", "0", "7", " ", "  ", ",", "\"", "\"\"", "\n", "\r\n", "\r", "\t", "\\",
                                 "é", "e\u{301}", "ß", "漢字", "🙂", "\u{feff}", "'", ";", "=", "{", "}", "[", "null",
                                 "word", "Mug", "12\" pizza", "a,b"]

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    mutating func next(below bound: Int) -> Int { random.next(below: bound) }

    /// 0…`maxPieces` pieces; `allowBareCR: false` leaves out the lone carriage return (CRLF stays).
    mutating func text(maxPieces: Int = 8, allowBareCR: Bool = true) -> String {
        var text = ""
        for _ in 0..<random.next(below: maxPieces + 1) {
            let piece = random.pick(Self.pieces)
            if !allowBareCR && piece == "\r" { continue }
            text += piece
        }
        return text
    }

    /// A valid identifier (SKU, category): 1…20 characters, no control characters or white space at the ends.
    mutating func identifier(prefix: String) -> String {
        var middle = text(maxPieces: 4).filter { !$0.isNewline && $0 != "\t" && $0 != "\u{feff}" }
        middle = String(String.UnicodeScalarView(middle.unicodeScalars.prefix(40))).trimmingCharacters(in: .whitespaces)
        return prefix + middle
    }
}
