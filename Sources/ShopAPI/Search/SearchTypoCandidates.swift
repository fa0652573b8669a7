/// Finds the words of a `SearchVocabulary` within a query word's typo budget
/// (`SearchTypoTolerance`), by walking the sorted vocabulary with a Damerau–Levenshtein table
/// kept per prefix and skipping every word that begins with a prefix that is already too far.
///
/// **Strategy.** Candidates must begin with the query word's first letter, or with its first two
/// letters swapped (`rginder` finds `grinder`): a typo in the first letter is rare and would make
/// every word a candidate. Within those ranges the words are visited in order; for each, the table
/// rows for the prefix it shares with the previous word are reused, and the first prefix whose row
/// has no cell within the budget ends the visit: the walk then jumps past every word with that
/// prefix (one new range enumeration from the prefix's successor). So it visits the words within
/// reach plus about one word per dead prefix, never the whole range.
///
/// **Cost, measured** (`SearchTypoCandidatesTests`, a synthetic vocabulary of 300 000 words made
/// of 1–6 common English syllables, so that they share prefixes as a language's words do): a
/// 1-typo lookup visited 204–365 words, a 2-typo lookup 166–2 097 (the test fails above 1 000 and
/// 5 000). Each visit is one word of an enumeration, and each jump starts a new enumeration (a
/// store's range query), so a lookup costs a few hundred to a few thousand index rows, whatever
/// the vocabulary's size: the walk only enters the ranges that begin with the word's first letter
/// (or its first two swapped), and inside them only prefixes within reach.
///
/// Pure function of the vocabulary; thread-safe when the vocabulary is.
enum SearchTypoCandidates {
    /// A vocabulary word within the budget, and its distance (1 or 2; never 0: the word itself is
    /// not a typo).
    struct Candidate: Equatable, Sendable {
        var word: String
        var typos: Int
    }

    /// The words of `vocabulary` at distance 1…`maxTypos` from `word`, fewest typos first, then in
    /// vocabulary order, and how many vocabulary words the walk visited.
    static func find(for word: String, maxTypos: Int, in vocabulary: some SearchVocabulary) throws
        -> (candidates: [Candidate], visited: Int) {
        let query = Array(word.unicodeScalars)
        guard maxTypos > 0, let first = query.first else { return ([], 0) }
        var walk = Walk(query: query, maxTypos: maxTypos)
        try walk.run(prefix: [first], in: vocabulary)
        if query.count >= 2, query[1] != query[0] {
            try walk.run(prefix: [query[1], query[0]], in: vocabulary)
        }
        let sorted = walk.found.sorted { a, b in
            a.typos != b.typos ? a.typos < b.typos : SearchWordOrder.precedes(a.word, b.word)
        }
        return (sorted, walk.visited)
    }

    /// The table of one walk: row `i` is the distance of the visited word's first `i` scalars to
    /// every prefix of the query.
    private struct Walk {
        let query: [Unicode.Scalar]
        let maxTypos: Int
        var rows: [[Int]]
        var previous: [Unicode.Scalar] = []
        var validRows = 0
        var found: [Candidate] = []
        var visited = 0

        init(query: [Unicode.Scalar], maxTypos: Int) {
            self.query = query
            self.maxTypos = maxTypos
            rows = [Array(0...query.count)]
        }

        mutating func run(prefix: [Unicode.Scalar], in vocabulary: some SearchVocabulary) throws {
            let rangeEnd = SearchWordOrder.upperBound(ofPrefix: Self.string(prefix))
            var cursor: String? = Self.string(prefix)
            while let from = cursor {
                cursor = nil
                try vocabulary.enumerateWords(from: from, to: rangeEnd) { candidate in
                    visited += 1
                    let scalars = Array(candidate.unicodeScalars)
                    if let dead = deadPrefixLength(of: scalars) {
                        cursor = Self.successor(of: scalars[0..<dead])
                        return false
                    }
                    let distance = rows[scalars.count][query.count]
                    if distance > 0, distance <= maxTypos { found.append(Candidate(word: candidate, typos: distance)) }
                    return true
                }
            }
        }

        /// Fills the rows for `word` and answers the length of its first prefix that is beyond the
        /// budget, or nil when none is.
        private mutating func deadPrefixLength(of word: [Unicode.Scalar]) -> Int? {
            var common = 0
            let limit = min(validRows, word.count, previous.count)
            while common < limit, word[common] == previous[common] { common += 1 }
            previous = word
            validRows = common
            let m = query.count
            if word.count == 0 { return nil }
            for i in (common + 1)...word.count {
                if rows.count <= i { rows.append([Int](repeating: 0, count: m + 1)) }
                rows[i][0] = i
                var minimum = i
                for j in stride(from: 1, through: m, by: 1) {
                    let cost = word[i - 1] == query[j - 1] ? 0 : 1
                    var value = min(rows[i - 1][j - 1] + cost, rows[i - 1][j] + 1, rows[i][j - 1] + 1)
                    if i > 1, j > 1, word[i - 1] == query[j - 2], word[i - 2] == query[j - 1] {
                        value = min(value, rows[i - 2][j - 2] + 1)
                    }
                    rows[i][j] = value
                    minimum = min(minimum, value)
                }
                validRows = i
                if minimum > maxTypos { return i }
            }
            return nil
        }

        private static func string(_ scalars: some Sequence<Unicode.Scalar>) -> String {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars)
            return String(view)
        }

        /// The smallest string above every string that begins with `prefix`, or nil when there
        /// is none.
        private static func successor(of prefix: ArraySlice<Unicode.Scalar>) -> String? {
            var scalars = Array(prefix)
            while let last = scalars.popLast() {
                var value = last.value + 1
                if value == 0xD800 { value = 0xE000 }
                if let next = Unicode.Scalar(value) {
                    scalars.append(next)
                    return string(scalars)
                }
            }
            return nil
        }
    }
}
