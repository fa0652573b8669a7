/// The owner's synonyms, as `admin.search.synonyms.set` stores them and search applies them at
/// query time: `groups` of words that all mean the same (`tee, t-shirt`: each finds the others),
/// and one-way `rules` (`laptop → notebook`: a search for `laptop` also finds notebooks, one for
/// `notebook` does not find laptops).
///
/// A synonym is one word as search reads it: its letters and digits, folded and written together
/// (`SearchQuery.identifierForm`), so `T-Shirt`, `t shirt` and `tshirt` are the one word `tshirt`,
/// which a product's `T-Shirt` has (the analyzer joins hyphenated words). The owner's spelling is
/// kept for `get`. A query word found through a synonym ranks as a plural does (after exact words,
/// before prefixes and typos). Immutable value; `Sendable`.
public struct SearchSynonyms: Codable, Sendable, Equatable {
    /// One one-way rule: `from` also finds each of `to`.
    public struct Rule: Codable, Sendable, Equatable {
        public let from: String
        public let to: [String]

        public init(from: String, to: [String]) {
            self.from = from
            self.to = to
        }
    }

    public let groups: [[String]]
    public let rules: [Rule]
    /// Folded word → the folded words it also finds (without itself), in the order given.
    private let alternativesByWord: [String: [String]]

    public static let none = SearchSynonyms(groups: [], rules: [])

    public init(groups: [[String]], rules: [Rule]) {
        self.groups = groups
        self.rules = rules
        var index: [String: [String]] = [:]
        func add(_ word: String, _ alternative: String) {
            guard word != alternative, !word.isEmpty, !alternative.isEmpty, index[word]?.contains(alternative) != true else { return }
            index[word, default: []].append(alternative)
        }
        for group in groups {
            let words = group.map(Self.word(of:))
            for word in words { for other in words { add(word, other) } }
        }
        for rule in rules {
            let from = Self.word(of: rule.from)
            for target in rule.to { add(from, Self.word(of: target)) }
        }
        alternativesByWord = index
    }

    /// The words `word` (folded, as a query word) also finds.
    func alternatives(of word: String) -> [String] {
        alternativesByWord[word] ?? []
    }

    var isEmpty: Bool { alternativesByWord.isEmpty }

    /// `term` as one search word: its letters and digits, folded, written together.
    static func word(of term: String) -> String {
        SearchQuery.identifierForm(of: term)
    }

    private enum CodingKeys: String, CodingKey {
        case groups, rules
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(groups: try container.decode([[String]].self, forKey: .groups), rules: try container.decode([Rule].self, forKey: .rules))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(groups, forKey: .groups)
        try container.encode(rules, forKey: .rules)
    }

    public static func == (a: SearchSynonyms, b: SearchSynonyms) -> Bool {
        a.groups == b.groups && a.rules == b.rules
    }
}
