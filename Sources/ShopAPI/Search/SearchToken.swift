/// One word of a field as the analyzer (`SearchAnalyzer`) emits it, for documents and queries alike.
///
/// `word` is folded (lowercase, Latin accents removed, `SearchText`'s rules) and never empty;
/// `stem` is its English stem when the language stems and the stem differs from `word`, else nil.
/// `position` counts the field's words from 0; a `.joined` token covers `span` positions starting
/// at `position` (the others cover one). `utf16Range` is where the token's text lies in the field's
/// original text, in UTF-16 code units (as LSP counts them). Value type; `Sendable`.
struct SearchToken: Hashable, Sendable {
    /// How the token came out of the text.
    enum Form: UInt8, Sendable {
        /// A plain word, a word with its apostrophes removed (`kiehls`), or a number with its unit
        /// (`500ml`, `1.5l`).
        case word
        /// One piece of a hyphenated (or `.`/`+`/`&`-joined) word: `pour` and `over` of `pour-over`,
        /// `brz` of `BRZ-ENC-001`.
        case part
        /// The pieces of a hyphenated word written together: `pourover`, `brzenc001`; covers `span`
        /// positions.
        case joined
        /// A piece of a word that had an apostrophe, at that word's position: `kiehl` of `Kiehl's`,
        /// `longhi` of `De'Longhi` (pieces of one letter are not emitted). Documents only: a query
        /// keeps the joined word.
        case split
    }

    var word: String
    var stem: String?
    var field: SearchField
    var position: Int
    var span: Int
    var form: Form
    var utf16Range: Range<Int>
    /// Whether `word` holds a digit (a number, a size, a model code): such words get no typos.
    var hasDigits: Bool

    /// The last position the token covers.
    var endPosition: Int { position + span - 1 }
}
