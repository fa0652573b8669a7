/// Splits a text into its runs of letters and digits (`SearchText`'s words: lowercased, Latin
/// accents removed, combining marks dropped, cut to `SearchText.maxWordLength` scalars), and says
/// what joins each run to the next, so that `SearchAnalyzer` can rebuild `De'Longhi`, `pour-over`,
/// `1.5 l` and `BRZ-ENC-001`. Reads each Unicode scalar of the text once; allocates one
/// `String` per run, never per character, except for a non-ASCII uppercase letter, lowercased
/// through its Unicode mapping (a `String`). The runs
/// are exactly `SearchText.words(in:)`. Pure; thread-safe.
enum SearchWordScanner {
    /// What lies between a run and the next one.
    enum Gap: UInt8, Sendable {
        /// Exactly one apostrophe (`'`, `’`, `ʼ`) and nothing else: `kiehl|s`.
        case apostrophe
        /// Exactly one hyphen (`-`, `‐`, `‑`), `+` or `&`: `pour|over`, `black|decker`.
        case hyphen
        /// Exactly one `.`: `1|5`, `e|l|f`.
        case dot
        /// Exactly one `,`: `10|000`, `1|5`.
        case comma
        /// Only white space (one character or more): `500| ml`.
        case space
        /// Anything else, or the end of the text.
        case other
    }

    /// One run of letters and digits.
    struct Run: Sendable {
        var text: String
        var utf16Range: Range<Int>
        /// Scalars that are decimal digits 0–9 at the start of `text`.
        var leadingDigits: Int
        var scalarCount: Int
        var hasDigits: Bool
        /// What joins this run to the next (`.other` for the last run).
        var gapAfter: Gap

        var isAllDigits: Bool { leadingDigits == scalarCount }
    }

    /// The runs of `text`, in order.
    static func runs(in text: String) -> [Run] {
        var runs: [Run] = []
        var buffer: [UInt8] = []
        buffer.reserveCapacity(32)
        var start = 0, offset = 0, scalarCount = 0, leadingDigits = 0, hasDigits = false
        var gapKind = Gap.other, gapLength = 0

        func flush() {
            guard !buffer.isEmpty else { return }
            runs.append(Run(text: String(decoding: buffer, as: UTF8.self), utf16Range: start..<offset,
                            leadingDigits: leadingDigits, scalarCount: scalarCount, hasDigits: hasDigits, gapAfter: .other))
            buffer.removeAll(keepingCapacity: true)
            scalarCount = 0; leadingDigits = 0; hasDigits = false
            gapKind = .other; gapLength = 0
        }
        func append(_ scalar: Unicode.Scalar, isDigit: Bool) {
            if buffer.isEmpty {
                start = offset
                if let last = runs.indices.last {
                    runs[last].gapAfter = gapLength == 1 || gapKind == .space ? gapKind : .other
                }
            }
            guard scalarCount < SearchText.maxWordLength else { return }
            if isDigit {
                hasDigits = true
                if leadingDigits == scalarCount { leadingDigits += 1 }
            }
            scalarCount += 1
            if scalar.isASCII {
                buffer.append(UInt8(scalar.value))
            } else {
                UTF8.encode(scalar) { buffer.append($0) }
            }
        }
        func separate(_ kind: Gap) {
            flush()
            if gapLength == 0 {
                gapKind = kind
            } else if !(gapKind == .space && kind == .space) {
                gapKind = .other
            }
            gapLength += 1
        }

        for scalar in text.unicodeScalars {
            let width = scalar.value > 0xFFFF ? 2 : 1
            defer { offset += width }
            switch scalar.value {
            case 0x61...0x7A: append(scalar, isDigit: false)
            case 0x41...0x5A: append(Unicode.Scalar(UInt8(scalar.value) + 32), isDigit: false)
            case 0x30...0x39: append(scalar, isDigit: true)
            case 0x27, 0x2019, 0x02BC: separate(.apostrophe)
            case 0x2D, 0x2010, 0x2011, 0x2B, 0x26: separate(.hyphen)
            case 0x2E: separate(.dot)
            case 0x2C: separate(.comma)
            case 0x20, 0x09, 0x0A, 0x0D, 0xA0: separate(.space)
            case 0..<0x80: separate(.other)
            default:
                switch scalar.properties.generalCategory {
                case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                     .letterNumber, .otherNumber:
                    if scalar.properties.changesWhenLowercased {
                        for lower in scalar.properties.lowercaseMapping.unicodeScalars
                        where lower.properties.generalCategory != .nonspacingMark {
                            append(SearchFolding.folded(lower), isDigit: false)
                        }
                    } else {
                        append(SearchFolding.folded(scalar), isDigit: false)
                    }
                case .decimalNumber:
                    append(scalar, isDigit: false)
                case .nonspacingMark, .spacingMark, .enclosingMark:
                    continue
                case .spaceSeparator:
                    separate(.space)
                default:
                    separate(.other)
                }
            }
        }
        flush()
        return runs
    }
}
