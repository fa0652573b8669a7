/// The owner's synonyms, as `admin.search.synonyms.set` stores them and search applies them at
/// query time: `groups` of words that all mean the same (`tee, t-shirt`: each finds the others),
/// and one-way `rules` (`laptop → notebook`: a search for `laptop` also finds notebooks, one for
/// `notebook` does not find laptops).
///
/// A synonym is one word, without spaces, as search reads it: its letters and digits, folded and
/// written together (`SearchQuery.identifierForm`), so `T-Shirt` and `tshirt` are the one word
/// `tshirt`, which a product's `T-Shirt` has (the analyzer joins hyphenated words), and which a
/// query's `t shirt` also reaches (a query joins neighbouring words). The owner's spelling is
/// kept for `get`. A query word found through a synonym ranks as a plural does (after exact words,
/// before prefixes and typos). Immutable value; `Sendable`.
public struct SearchSynonyms: Codable, Sendable, Equatable {
    /// One one-way rule: `input` also finds each of `synonyms` (Algolia's one-way synonym).
    public struct Rule: Codable, Sendable, Equatable {
        public let input: String
        public let synonyms: [String]

        public init(input: String, synonyms: [String]) {
            self.input = input
            self.synonyms = synonyms
        }
    }

    public let groups: [[String]]
    public let rules: [Rule]

    public static let none = SearchSynonyms(groups: [], rules: [])

    public init(groups: [[String]], rules: [Rule]) {
        self.groups = groups
        self.rules = rules
    }

    /// `term` as one search word: its letters and digits, folded, written together.
    static func word(of term: String) -> String {
        SearchQuery.identifierForm(of: term)
    }

    /// Most groups and rules together.
    public static let maxEntries = 500
    /// Most words of one group, or targets of one rule.
    public static let maxWordsPerEntry = 20
    /// Longest word, in UTF-8 bytes as given.
    public static let maxWordBytes = 64

    /// The first thing wrong with these synonyms, with the member it is in (`groups[2][0]`,
    /// `rules[1].synonyms`), or nil: too many entries, a group of fewer than 2 words or a rule without
    /// targets, too many words in one, or a word that is too long or has no letter or digit.
    public var firstProblem: (member: String, message: String)? {
        if groups.count + rules.count > Self.maxEntries {
            return ("groups", "at most \(Self.maxEntries) groups and rules together")
        }
        func check(_ word: String, _ member: String) -> (member: String, message: String)? {
            if word.utf8.count > Self.maxWordBytes { return (member, "a synonym is at most \(Self.maxWordBytes) bytes") }
            if Self.word(of: word).isEmpty { return (member, "a synonym needs a letter or a digit") }
            if word.contains(where: \.isWhitespace) {
                return (member, "a synonym is one word (a hyphenated one, such as t-shirt, is one); \"\(word)\" has a space")
            }
            return nil
        }
        for (index, group) in groups.enumerated() {
            guard (2...Self.maxWordsPerEntry).contains(group.count) else {
                return ("groups[\(index)]", "a group holds 2 to \(Self.maxWordsPerEntry) words")
            }
            for (position, word) in group.enumerated() {
                if let problem = check(word, "groups[\(index)][\(position)]") { return problem }
            }
        }
        for (index, rule) in rules.enumerated() {
            if let problem = check(rule.input, "rules[\(index)].input") { return problem }
            guard (1...Self.maxWordsPerEntry).contains(rule.synonyms.count) else {
                return ("rules[\(index)].synonyms", "a rule has 1 to \(Self.maxWordsPerEntry) synonyms")
            }
            for (position, word) in rule.synonyms.enumerated() {
                if let problem = check(word, "rules[\(index)].synonyms[\(position)]") { return problem }
            }
        }
        return nil
    }
}

/// `SearchSynonyms` as a query plan looks them up: each folded word with the folded words it also
/// finds (without itself), in the order the owner gave them. Built once per stored set of
/// synonyms (`ShopService` keeps the last one). Immutable value; `Sendable`.
struct SearchSynonymIndex: Sendable {
    private let alternativesByWord: [String: [String]]

    static let none = SearchSynonymIndex(.none)

    init(_ synonyms: SearchSynonyms) {
        var index: [String: [String]] = [:]
        func add(_ word: String, _ alternative: String) {
            guard word != alternative, !word.isEmpty, !alternative.isEmpty, index[word]?.contains(alternative) != true else { return }
            index[word, default: []].append(alternative)
        }
        for group in synonyms.groups {
            let words = group.map(SearchSynonyms.word(of:))
            for word in words { for other in words { add(word, other) } }
        }
        for rule in synonyms.rules {
            let input = SearchSynonyms.word(of: rule.input)
            for target in rule.synonyms { add(input, SearchSynonyms.word(of: target)) }
        }
        alternativesByWord = index
    }

    /// The words `word` (folded, as a query word) also finds.
    func alternatives(of word: String) -> [String] {
        alternativesByWord[word] ?? []
    }

    var isEmpty: Bool { alternativesByWord.isEmpty }
}
