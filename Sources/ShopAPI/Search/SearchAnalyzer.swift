/// Turns a field's text into the tokens search indexes and matches: the one analyzer for product
/// fields and for queries, so the two always agree.
///
/// On top of `SearchWordScanner`'s folded runs of letters and digits:
/// - **apostrophes** inside a word are dropped: `De'Longhi` is `delonghi`, `Kiehl's` is
///   `kiehls`; a document also gets the pieces of two letters or more (`.split`: `de`, `longhi`;
///   `kiehl`) at the same position;
/// - **hyphenated words** (and words joined by `.`, `+` or `&` with nothing around it) give their
///   pieces at consecutive positions and the pieces written together (`.joined`): `Pour-Over` is
///   `pour`, `over` and `pourover`; `BRZ-ENC-001` is `brz`, `enc`, `001` and `brzenc001`;
///   `Black+Decker` is `black`, `decker`, `blackdecker`;
/// - **numbers with a unit** (`SearchUnits`) are one word, whether the unit is attached or not:
///   `500ml`, `500 ml`, `500 mL` → `500ml`; `1.5 L`, `1,5l` → `1.5l`; `10,000mAh` → `10000mah`;
/// - each token carries its English **stem** (`SearchLanguage.stem`) when it differs.
///
/// Positions count from 0 within the field; a number with its unit takes one position. Pure
/// value type; thread-safe.
struct SearchAnalyzer: Sendable {
    var language: SearchLanguage = .english

    /// The tokens of every field of `document`, field by field in `SearchField` order.
    func tokens(of document: SearchDocument) -> [SearchToken] {
        var tokens: [SearchToken] = []
        for field in SearchField.allCases {
            let text = document.text(of: field)
            if !text.isEmpty { tokens += self.tokens(in: text, field: field) }
        }
        return tokens
    }

    /// The tokens of `text` read as `field`, in position order (a `.joined` token right after the
    /// pieces it joins). With `stemming`, only a word whose first byte is in it gets its stem
    /// (a matcher needs no stem of a word that cannot match, `SearchQueryPlan.firstBytes`).
    func tokens(in text: String, field: SearchField, stemming: SearchByteSet? = nil) -> [SearchToken] {
        let units = Self.mergingApostrophes(SearchWordScanner.runs(in: text))
        var tokens: [SearchToken] = []
        tokens.reserveCapacity(units.count + 4)
        var position = 0
        var index = 0

        func emit(_ word: String, _ form: SearchToken.Form, _ range: Range<Int>, at position: Int, span: Int = 1) {
            let stem = stemming.map { $0.containsFirstByte(of: word) } ?? true ? language.stem(word) : nil
            tokens.append(SearchToken(word: word, stem: stem, field: field, position: position,
                                      span: span, form: form, utf16Range: range, hasDigits: Self.hasDigits(word)))
        }
        func emitSplits(of unit: Unit, at position: Int) {
            for piece in unit.pieces where piece.utf8.count >= 2 {
                emit(piece, .split, unit.range, at: position)
            }
        }

        while index < units.count {
            if let number = Self.number(at: index, in: units) {
                emit(number.word, .word, units[index].range.lowerBound..<units[number.last].range.upperBound, at: position)
                position += 1
                index = number.last + 1
                continue
            }
            var last = index
            while last + 1 < units.count, units[last].gapAfter == .hyphen || units[last].gapAfter == .dot {
                last += 1
            }
            if last == index {
                emit(units[index].text, .word, units[index].range, at: position)
                emitSplits(of: units[index], at: position)
                position += 1
            } else {
                var joined = ""
                for offset in 0...(last - index) {
                    let unit = units[index + offset]
                    emit(unit.text, .part, unit.range, at: position + offset)
                    emitSplits(of: unit, at: position + offset)
                    joined += unit.text
                }
                let span = last - index + 1
                emit(joined, .joined, units[index].range.lowerBound..<units[last].range.upperBound, at: position, span: span)
                position += span
            }
            index = last + 1
        }
        return tokens
    }

    // MARK: - Apostrophes

    /// A run, or runs joined by apostrophes written together (`pieces` then holds them).
    struct Unit {
        var text: String
        var pieces: [String]
        var range: Range<Int>
        var leadingDigits: Int
        var scalarCount: Int
        var gapAfter: SearchWordScanner.Gap

        var isAllDigits: Bool { leadingDigits == scalarCount }
    }

    static func mergingApostrophes(_ runs: [SearchWordScanner.Run]) -> [Unit] {
        var units: [Unit] = []
        units.reserveCapacity(runs.count)
        var joinsPrevious = false
        for run in runs {
            if joinsPrevious, let last = units.indices.last {
                if units[last].pieces.isEmpty { units[last].pieces = [units[last].text] }
                units[last].pieces.append(run.text)
                units[last].text += run.text
                units[last].range = units[last].range.lowerBound..<run.utf16Range.upperBound
                units[last].scalarCount += run.scalarCount
                units[last].gapAfter = run.gapAfter
            } else {
                units.append(Unit(text: run.text, pieces: [], range: run.utf16Range, leadingDigits: run.leadingDigits,
                                  scalarCount: run.scalarCount, gapAfter: run.gapAfter))
            }
            joinsPrevious = run.gapAfter == .apostrophe
        }
        return units
    }

    // MARK: - Numbers

    /// The number (with its unit) that starts at `units[index]` and the index of its last unit,
    /// or nil when `units[index]` is not one: a plain whole number (`001`, `15`) is nil too, so
    /// that it stays a piece of a code (`BRZ-ENC-001`).
    static func number(at index: Int, in units: [Unit]) -> (word: String, last: Int)? {
        let first = units[index]
        guard first.leadingDigits > 0, first.pieces.isEmpty else { return nil }
        var number = String(first.text.prefix(first.leadingDigits))
        var rest = first.text.dropFirst(first.leadingDigits)
        var last = index
        if rest.isEmpty {
            while rest.isEmpty, units[last].gapAfter == .comma, last + 1 < units.count, units[last + 1].leadingDigits == 3,
                  units[last + 1].pieces.isEmpty {
                let next = units[last + 1]
                let nextRest = next.text.dropFirst(3)
                guard nextRest.isEmpty || SearchUnits.canonicalUnit(nextRest) != nil else { break }
                number += next.text.prefix(3)
                rest = nextRest
                last += 1
            }
            let gap = units[last].gapAfter
            if rest.isEmpty, gap == .dot || gap == .comma, last + 1 < units.count, units[last + 1].leadingDigits > 0,
               units[last + 1].pieces.isEmpty {
                let next = units[last + 1]
                let fractionRest = next.text.dropFirst(next.leadingDigits)
                if fractionRest.isEmpty || SearchUnits.canonicalUnit(fractionRest) != nil {
                    number = SearchUnits.decimal(Substring(number), next.text.prefix(next.leadingDigits))
                    rest = fractionRest
                    last += 1
                }
            }
        }
        if !rest.isEmpty {
            guard let unit = SearchUnits.canonicalUnit(rest) else {
                return last == index ? nil : (number + rest, last)
            }
            return (number + unit, last)
        }
        if units[last].gapAfter == .space, last + 1 < units.count, units[last + 1].pieces.isEmpty,
           let unit = SearchUnits.canonicalUnit(Substring(units[last + 1].text)), SearchUnits.joinsWhenSpaced(unit) {
            return (number + unit, last + 1)
        }
        return last == index ? nil : (number, last)
    }

    static func hasDigits(_ word: String) -> Bool {
        word.utf8.contains { $0 >= 0x30 && $0 <= 0x39 }
    }
}
