/// A user's search text as search reads it: its words (the analyzer's `.word` and `.part`
/// tokens, `SearchAnalyzer`, at most `maxWords`, repeats kept once), which of them a product
/// must have, which is a prefix, and which words written together may stand for several of them.
///
/// Guarantees:
/// - every word is folded exactly as product fields are, by the same analyzer;
/// - a **filler** word (`SearchLanguage.isFiller`: `for`, `the`, `with` …) is optional, unless
///   every word is filler (then all are required); an optional word still counts for ranking
///   when a product has it;
/// - the **last word is also a prefix** (as typed, without typos) when it has at least
///   `minimumPrefixLength` scalars and the text does not end in white space (the user is still
///   typing it);
/// - `joins` are the words written together: each hyphenated word of the query (`pour-over` →
///   `pourover` for words 0…1, `BRZ-ENC-001` → `brzenc001`) and each two neighbouring words that
///   are not filler (`pour over` → `pourover`, `back pack` → `backpack`);
/// - `identifier` is the query's letters and digits only (`brzenc001`), for an exact SKU or handle
///   (`isIdentifier(_:)`);
/// - `droppingLastWord()` makes the last required word optional (Meilisearch's
///   `matchingStrategy: last`), and remembers it in `droppedWords`.
///
/// Value type; `Sendable`.
struct SearchQuery: Sendable {
    static let maxWords = 16
    static let minimumPrefixLength = 2

    /// One word of the query.
    struct Word: Equatable, Sendable {
        var text: String
        /// The stem key to match stems by (the word itself when it has no other stem).
        var stemKey: String
        var isFiller: Bool
        var isPrefix: Bool
        var typoBudget: Int
    }

    /// A word written together that stands for `count` query words from `first`.
    struct Join: Equatable, Sendable {
        var word: String
        var first: Int
        var count: Int
    }

    private(set) var words: [Word]
    private(set) var joins: [Join]
    let identifier: String
    /// The language of the analyzer that read the query.
    let language: SearchLanguage
    private var dropped: Set<Int> = []

    /// The query of `text`, read by `analyzer`.
    init(_ text: String, analyzer: SearchAnalyzer = SearchAnalyzer()) {
        var words: [Word] = []
        var joins: [Join] = []
        var indexOfPosition: [Int: Int] = [:]
        for token in analyzer.tokens(in: text, field: .name) {
            switch token.form {
            case .word, .part:
                if let existing = words.firstIndex(where: { $0.text == token.word }) {
                    indexOfPosition[token.position] = existing
                    continue
                }
                guard words.count < Self.maxWords else { continue }
                indexOfPosition[token.position] = words.count
                words.append(Word(text: token.word, stemKey: token.stem ?? token.word,
                                  isFiller: analyzer.language.isFiller(token.word), isPrefix: false,
                                  typoBudget: SearchTypoTolerance.budget(for: token.word)))
            case .joined:
                let covered = (token.position...token.endPosition).compactMap { indexOfPosition[$0] }
                if let first = covered.first, covered == Array(first..<(first + covered.count)), covered.count > 1 {
                    joins.append(Join(word: token.word, first: first, count: covered.count))
                }
            case .split:
                continue
            }
        }
        if words.allSatisfy(\.isFiller) {
            for index in words.indices { words[index].isFiller = false }
        }
        if let last = words.indices.last, words[last].text.unicodeScalars.count >= Self.minimumPrefixLength,
           let end = text.unicodeScalars.last, !end.properties.isWhitespace {
            words[last].isPrefix = true
        }
        for index in words.indices.dropLast() where !words[index].isFiller && !words[index + 1].isFiller {
            let word = words[index].text + words[index + 1].text
            if !joins.contains(where: { $0.word == word }) {
                joins.append(Join(word: word, first: index, count: 2))
            }
        }
        self.words = words
        self.joins = joins
        self.identifier = Self.identifierForm(of: text)
        self.language = analyzer.language
    }

    /// Whether a product must have word `index` (`false` for filler and dropped words).
    func isRequired(_ index: Int) -> Bool {
        !words[index].isFiller && !dropped.contains(index)
    }

    /// The indices of the required words.
    var requiredWords: [Int] { words.indices.filter(isRequired) }

    /// The words made optional by `droppingLastWord()` and `droppingWord(_:)`, in query order.
    var droppedWords: [String] { dropped.sorted().map { words[$0].text } }

    /// This query with its last required word made optional, or nil when at most one word is
    /// required (the first word is never dropped).
    func droppingLastWord() -> SearchQuery? {
        let required = requiredWords
        guard required.count > 1, let last = required.last else { return nil }
        var query = self
        query.dropped.insert(last)
        return query
    }

    /// This query with required word `index` made optional, or nil when it is not required or is
    /// the only required word.
    func droppingWord(_ index: Int) -> SearchQuery? {
        let required = requiredWords
        guard required.count > 1, required.contains(index) else { return nil }
        var query = self
        query.dropped.insert(index)
        return query
    }

    /// Whether `value` (a SKU or a handle) is what the user typed, up to case, accents and
    /// punctuation: `brz-enc-001` is `BRZ-ENC-001`.
    func isIdentifier(_ value: String) -> Bool {
        !identifier.isEmpty && Self.identifierForm(of: value) == identifier
    }

    /// The letters and digits of `text`, folded and written together.
    static func identifierForm(of text: String) -> String {
        var result = ""
        for run in SearchWordScanner.runs(in: text) { result += run.text }
        return result
    }
}
