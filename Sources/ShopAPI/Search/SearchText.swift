/// The words search sees in a text: what both stores index for a product and what a query is
/// split into, computed here, in Swift, so that SQLite and PostgreSQL index exactly the same
/// words and so answer every query alike (protocol.md, `catalog.search`).
///
/// A word is a run of letters and digits (Unicode general categories L and N), lowercased, with
/// the accents of Latin letters removed (`SearchFolding`): "Café crème" has the words `cafe`
/// and `creme`. Combining marks are dropped (so decomposed text folds the same way); every other
/// character separates words. A word longer than `maxWordLength` characters is cut to it. Pure
/// functions; thread-safe.
enum SearchText {
    /// Longest word kept, in Unicode scalars; longer ones are cut (a query word as long then
    /// still finds them, as a prefix).
    static let maxWordLength = 64

    /// The words of `text`, in order, repeats included.
    static func words(in text: String) -> [String] {
        var words: [String] = []
        forEachWord(in: text) { words.append($0) }
        return words
    }

    /// The words a product is found by: those of its name and of its category, each once, in
    /// order of first appearance.
    static func productWords(name: String, category: String) -> [String] {
        var words: [String] = []
        let append = { (word: String) in if !words.contains(word) { words.append(word) } }
        forEachWord(in: name, append)
        forEachWord(in: category, append)
        return words
    }

    /// `productWords` joined by single spaces: the text the SQLite index tokenizes (its `ascii`
    /// tokenizer splits on the spaces only, since the words hold no other ASCII separator).
    static func productDocument(name: String, category: String) -> String {
        productWords(name: name, category: category).joined(separator: " ")
    }

    /// Calls `body` with each word of `text`, in order.
    static func forEachWord(in text: String, _ body: (String) -> Void) {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            forEachASCIIWord(in: text, body)
            return
        }
        var word = String.UnicodeScalarView()
        var length = 0
        func flush() {
            if !word.isEmpty { body(String(word)) }
            word = String.UnicodeScalarView()
            length = 0
        }
        for scalar in text.lowercased().unicodeScalars {
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .decimalNumber, .letterNumber, .otherNumber:
                if length < maxWordLength {
                    word.append(SearchFolding.folded(scalar))
                    length += 1
                }
            case .nonspacingMark, .spacingMark, .enclosingMark:
                continue
            default:
                flush()
            }
        }
        flush()
    }

    /// `forEachWord` for ASCII text, byte by byte: letters and digits, A–Z lowercased.
    private static func forEachASCIIWord(in text: String, _ body: (String) -> Void) {
        var word: [UInt8] = []
        word.reserveCapacity(32)
        func flush() {
            if !word.isEmpty { body(String(decoding: word, as: UTF8.self)) }
            word.removeAll(keepingCapacity: true)
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                if word.count < maxWordLength { word.append(byte) }
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                if word.count < maxWordLength { word.append(byte + 32) }
            default:
                flush()
            }
        }
        flush()
    }
}
