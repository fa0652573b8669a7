/// A `SearchQuery` resolved against a store's vocabulary: for each query word, the vocabulary
/// words it stands for besides itself (typo candidates, a split into two words), which joins
/// exist, and what the query was read as. Built once per query; then `matches(of:)` says, for
/// any token, which query words it matches and how, without touching the vocabulary again.
///
/// Guarantees:
/// - **typos** are looked up (`SearchTypoCandidates`) only for a word no product has (its
///   document frequency is 0) and that is not a prefix of some word when it is the last: a word
///   that exists is taken as meant. A typo candidate that only differs from the word by its stem
///   (`machines` → `machine`) is not a correction;
/// - a **split** (`powerbank` → `power bank`) is looked for only for a word no product has, of 4
///   scalars or more without digits: the cut whose two halves (2 scalars or more each) both exist
///   with the largest smaller frequency;
/// - `corrections` holds, for each word no product has, the typo candidate with fewest typos,
///   then the most products, then first in vocabulary order; `readAs` is the query with them;
/// - without a vocabulary (`init(query:)`), exact words, stems, the prefix and joins still match.
///
/// Value type; `Sendable`.
struct SearchQueryPlan: Sendable {
    /// A query word cut in two, each half a vocabulary word.
    struct Split: Equatable, Sendable {
        var first: String
        var second: String
    }

    /// One way a token matched a query word.
    struct Match: Equatable, Sendable {
        var word: Int
        var kind: SearchMatchKind
        var typos: Int
    }

    private(set) var query: SearchQuery
    /// Per query word: its typo candidates and their distances.
    private(set) var typoCandidates: [[SearchTypoCandidates.Candidate]]
    /// Per query word: its split, if any.
    private(set) var splits: [Split?]
    /// Per query word: the owner's synonyms of it (`SearchSynonyms`), folded.
    private(set) var synonymWords: [[String]]
    /// Per query word: how many products have it (0 without a vocabulary).
    private(set) var documentFrequencies: [Int]
    private(set) var corrections: [SearchCorrection] = []
    /// How many vocabulary words the typo lookups visited (`SearchTypoCandidates`).
    private(set) var typoLookupVisits = 0
    /// Every vocabulary word beginning with the last word when it is a prefix and there are at
    /// most `maxPrefixWords` of them (nil otherwise, and without a vocabulary).
    private(set) var prefixWords: [String]?

    /// Most words a prefix is spelt out as (`WordLookup.prefixWords`). A store's index answers a
    /// few named words in a page without reading them all, where it merges every word's list
    /// for a prefix it has no prefix index of; above this many the prefix is looked up as one.
    static let maxPrefixWords = 64

    /// Per join of the query: whether some product has it (nil without a vocabulary).
    private var joinsInVocabulary: [Bool]?
    private var exactIndex: [String: [Int]] = [:]
    private var stemIndex: [String: [Int]] = [:]
    private var typoIndex: [String: [(word: Int, typos: Int)]] = [:]
    private var joinIndex: [String: [Int]] = [:]
    private var splitIndex: [String: [Int]] = [:]
    private var synonymIndex: [String: [Int]] = [:]
    /// The first bytes of every word a token can match by (each index's keys; the prefix is a
    /// word too): a token whose word begins with none matches nothing, whatever its stem, since
    /// a stem key begins as its word does (`SearchStemmer`).
    private(set) var firstBytes = SearchByteSet()

    /// The plan of `query` with no vocabulary: no typos, no splits.
    init(query: SearchQuery) {
        self.query = query
        typoCandidates = Array(repeating: [], count: query.words.count)
        splits = Array(repeating: nil, count: query.words.count)
        synonymWords = Array(repeating: [], count: query.words.count)
        documentFrequencies = Array(repeating: 0, count: query.words.count)
        buildIndexes()
    }

    /// The plan of `query` resolved against `vocabulary`, with the owner's `synonyms`: a query
    /// word also matches its synonyms, and those of a join that covers it (`t shirt` → `tshirt`
    /// → `tee`); a word with a synonym some product has is not corrected.
    /// - Throws: what the vocabulary throws.
    init(query: SearchQuery, vocabulary: some SearchVocabulary, synonyms: SearchSynonymIndex = .none) throws {
        self.init(query: query)
        joinsInVocabulary = try query.joins.map { try vocabulary.contains($0.word) }
        if !synonyms.isEmpty {
            for (index, word) in query.words.enumerated() {
                var alternatives = synonyms.alternatives(of: word.text)
                for join in query.joins where (join.first..<(join.first + join.count)).contains(index) {
                    alternatives += synonyms.alternatives(of: join.word).filter { !alternatives.contains($0) }
                }
                synonymWords[index] = alternatives.filter { $0 != word.text }
            }
        }
        if let last = query.words.last, last.isPrefix {
            prefixWords = try Self.words(beginningWith: last.text, atMost: Self.maxPrefixWords, in: vocabulary)
        }
        for (index, word) in query.words.enumerated() {
            let frequency = try vocabulary.documentFrequency(of: word.text)
            documentFrequencies[index] = frequency
            guard frequency == 0 else { continue }
            if try synonymWords[index].contains(where: { try vocabulary.contains($0) }) { continue }
            // The last word's `prefixWords` is nil only when more than `maxPrefixWords` begin with it.
            if word.isPrefix, prefixWords.map({ !$0.isEmpty }) ?? true { continue }
            if word.typoBudget > 0 {
                let found = try SearchTypoCandidates.find(for: word.text, maxTypos: word.typoBudget, in: vocabulary)
                typoLookupVisits += found.visited
                typoCandidates[index] = found.candidates
                var best: (candidate: SearchTypoCandidates.Candidate, frequency: Int)?
                for candidate in found.candidates {
                    let candidateFrequency = try vocabulary.documentFrequency(of: candidate.word)
                    if best == nil || candidate.typos < best!.candidate.typos
                        || (candidate.typos == best!.candidate.typos && candidateFrequency > best!.frequency) {
                        best = (candidate, candidateFrequency)
                    }
                }
                if let best, query.language.stem(best.candidate.word) ?? best.candidate.word != word.stemKey {
                    corrections.append(SearchCorrection(word: word.text, readAs: best.candidate.word))
                }
            }
            splits[index] = try Self.split(word.text, in: vocabulary)
        }
        buildIndexes()
    }

    /// The query as read: each corrected word replaced by what it was read as.
    var readAs: String {
        query.words.map { word in corrections.first { $0.word == word.text }?.readAs ?? word.text }
            .joined(separator: " ")
    }

    /// This plan with the query's last required word made optional (`SearchQuery.droppingLastWord`),
    /// or nil when only one word is required.
    func droppingLastWord() -> SearchQueryPlan? {
        guard let dropped = query.droppingLastWord() else { return nil }
        var plan = self
        plan.query = dropped
        return plan
    }

    /// This plan with required word `index` made optional (`SearchQuery.droppingWord`), or nil
    /// when it is the only required word.
    func droppingWord(_ index: Int) -> SearchQueryPlan? {
        guard let dropped = query.droppingWord(index) else { return nil }
        var plan = self
        plan.query = dropped
        return plan
    }

    /// What a store looks up in its indexes to find the products that may match one query word
    /// (the matcher then checks each candidate, `SearchDocumentMatcher`): a product can match the
    /// word only if it has one of `words` (the word itself, the owner's synonyms of it, its typo
    /// candidates, and the joins that cover it and that some product has) in its word index, or
    /// `stemKey` in its stem-key index (`stem ?? word` of each token), or a word beginning with
    /// `prefix`, or both words of `split`. When `prefixWords` is not nil it is every word of the
    /// store's vocabulary that begins with `prefix` (at most `maxPrefixWords`), read in the same
    /// transaction: a store may look those words up instead of the prefix, and finds the same.
    struct WordLookup: Equatable, Sendable {
        var words: [String]
        var stemKey: String
        var prefix: String?
        var split: Split?
        var prefixWords: [String]? = nil
    }

    /// The lookups for query word `index`.
    func lookup(forWord index: Int) -> WordLookup {
        let word = query.words[index]
        var words = [word.text] + synonymWords[index] + typoCandidates[index].map(\.word)
        for (number, join) in query.joins.enumerated()
        where (join.first..<(join.first + join.count)).contains(index) && joinsInVocabulary?[number] != false && !words.contains(join.word) {
            words.append(join.word)
        }
        return WordLookup(words: words, stemKey: word.stemKey, prefix: word.isPrefix ? word.text : nil, split: splits[index],
                          prefixWords: word.isPrefix ? prefixWords : nil)
    }

    /// The query words `token` matches, each once with its best kind. When `next` is the token at
    /// the position after `token` in the same field, a split query word can match the pair (the
    /// match is reported on `token`).
    func matches(of token: SearchToken, next: SearchToken? = nil) -> [Match] {
        guard firstBytes.containsFirstByte(of: token.word) else { return [] }
        var matches: [Match] = []
        func add(_ word: Int, _ kind: SearchMatchKind, _ typos: Int = 0) {
            if let existing = matches.firstIndex(where: { $0.word == word }) {
                let old = matches[existing]
                if (typos, kind) < (old.typos, old.kind) { matches[existing] = Match(word: word, kind: kind, typos: typos) }
            } else {
                matches.append(Match(word: word, kind: kind, typos: typos))
            }
        }
        for word in exactIndex[token.word] ?? [] { add(word, .exact) }
        for join in joinIndex[token.word] ?? [] {
            let covered = query.joins[join]
            for word in covered.first..<(covered.first + covered.count) { add(word, .joined) }
        }
        for word in stemIndex[token.stem ?? token.word] ?? [] where query.words[word].text != token.word {
            add(word, .stem)
        }
        if let last = query.words.indices.last, query.words[last].isPrefix {
            let prefix = query.words[last].text
            if token.word.utf8.count > prefix.utf8.count, token.word.utf8.starts(with: prefix.utf8) { add(last, .prefix) }
        }
        for word in synonymIndex[token.word] ?? [] { add(word, .synonym) }
        for candidate in typoIndex[token.word] ?? [] { add(candidate.word, .typo, candidate.typos) }
        if let next {
            for word in splitIndex[token.word] ?? [] where splits[word]?.second == next.word { add(word, .split) }
        }
        return matches
    }

    // MARK: - Building

    private mutating func buildIndexes() {
        for (index, word) in query.words.enumerated() {
            exactIndex[word.text, default: []].append(index)
            stemIndex[word.stemKey, default: []].append(index)
            for candidate in typoCandidates[index] {
                typoIndex[candidate.word, default: []].append((index, candidate.typos))
            }
            if let split = splits[index] { splitIndex[split.first, default: []].append(index) }
            for synonym in synonymWords[index] { synonymIndex[synonym, default: []].append(index) }
        }
        for (index, join) in query.joins.enumerated() { joinIndex[join.word, default: []].append(index) }
        for word in exactIndex.keys { firstBytes.insertFirstByte(of: word) }
        for word in stemIndex.keys { firstBytes.insertFirstByte(of: word) }
        for word in typoIndex.keys { firstBytes.insertFirstByte(of: word) }
        for word in joinIndex.keys { firstBytes.insertFirstByte(of: word) }
        for word in splitIndex.keys { firstBytes.insertFirstByte(of: word) }
        for word in synonymIndex.keys { firstBytes.insertFirstByte(of: word) }
    }

    /// The words of `vocabulary` beginning with `prefix`, or nil when there are more than `limit`.
    private static func words(beginningWith prefix: String, atMost limit: Int, in vocabulary: some SearchVocabulary) throws -> [String]? {
        var words: [String] = []
        var tooMany = false
        try vocabulary.enumerateWords(from: prefix, to: SearchWordOrder.upperBound(ofPrefix: prefix)) { word in
            guard words.count < limit else {
                tooMany = true
                return false
            }
            words.append(word)
            return true
        }
        return tooMany ? nil : words
    }

    private static func split(_ word: String, in vocabulary: some SearchVocabulary) throws -> Split? {
        let scalars = Array(word.unicodeScalars)
        guard scalars.count >= 4, !SearchAnalyzer.hasDigits(word) else { return nil }
        var best: (split: Split, frequency: Int)?
        for cut in 2...(scalars.count - 2) {
            var first = String.UnicodeScalarView(), second = String.UnicodeScalarView()
            first.append(contentsOf: scalars[..<cut])
            second.append(contentsOf: scalars[cut...])
            let split = Split(first: String(first), second: String(second))
            let frequency = min(try vocabulary.documentFrequency(of: split.first),
                                try vocabulary.documentFrequency(of: split.second))
            if frequency > 0, frequency > best?.frequency ?? 0 { best = (split, frequency) }
        }
        return best?.split
    }
}
