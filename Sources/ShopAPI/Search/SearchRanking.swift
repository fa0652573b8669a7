/// The one relevance ranking of search: pure functions from a plan (`SearchQueryPlan`) and each
/// candidate's facts (`SearchMatchFacts`) to its `SearchRankingKey`, and the rule that drops
/// words from the end when all of them together find nothing. Stores only gather candidates and
/// facts; the order is computed here, so it is the same for every store. Pure; thread-safe.
enum SearchRanking {
    /// Proximity of a pair of words in different fields, or further apart than `maxDistance`.
    static let maxDistance = 7
    static let differentFields = 8
    /// BM25 parameters, and the weight of a match in each field (`SearchField` order).
    static let k1 = 1.2, b = 0.75
    static let fieldWeights: [Double] = [3, 2, 1.5, 1, 1, 0]

    /// The key of a candidate with `facts`, or nil when it lacks a required word of `plan`'s query
    /// (or matches no word at all).
    static func key(for facts: SearchMatchFacts, plan: SearchQueryPlan,
                    statistics: SearchCorpusStatistics? = nil) -> SearchRankingKey? {
        let query = plan.query
        var best = [SearchMatchFacts.Hit?](repeating: nil, count: query.words.count)
        var bestField = [Int](repeating: Int.max, count: query.words.count)
        for hit in facts.hits {
            if let current = best[hit.word] {
                if (hit.typos, hit.kind) < (current.typos, current.kind) { best[hit.word] = hit }
            } else {
                best[hit.word] = hit
            }
            bestField[hit.word] = min(bestField[hit.word], hit.field.rank)
        }
        for index in query.words.indices where query.isRequired(index) && best[index] == nil { return nil }
        let allMatched = query.words.indices.filter { best[$0] != nil }
        guard !allMatched.isEmpty || facts.isIdentifierMatch else { return nil }
        let matched = allMatched.filter { !query.words[$0].isFiller }
        return SearchRankingKey(
            isIdentifierMatch: facts.isIdentifierMatch,
            matchedWords: matched.count,
            typos: matched.reduce(0) { $0 + best[$1]!.typos },
            proximity: proximity(of: matched, in: facts),
            attribute: matched.reduce(0) { $0 + bestField[$1] },
            matchedFillers: allMatched.count - matched.count,
            nameIsQuery: facts.nameIsQuery,
            exactWords: allMatched.filter { best[$0]!.kind <= .split }.count,
            stemOrBetterWords: allMatched.filter { best[$0]!.kind <= .stem }.count,
            relevance: statistics.map { relevance(of: facts, plan: plan, statistics: $0) } ?? 0,
            catalogPosition: facts.catalogPosition)
    }

    /// The sum, over each two consecutive matched words (`matched`, in query order), of their
    /// distance: 1 for neighbours in order (or one token matching both), the gap in positions when
    /// further apart in order, one more when in reverse order, at most `maxDistance`; and
    /// `differentFields` when no field has both.
    static func proximity(of matched: [Int], in facts: SearchMatchFacts) -> Int {
        guard matched.count > 1 else { return 0 }
        var total = 0
        for pair in 0..<(matched.count - 1) {
            var distance = differentFields
            for a in facts.hits where a.word == matched[pair] {
                for b in facts.hits where b.word == matched[pair + 1] && b.field == a.field {
                    let d: Int
                    if b.position > a.endPosition {
                        d = b.position - a.endPosition
                    } else if b.position >= a.position {
                        d = 1
                    } else {
                        d = a.position - b.endPosition + 1
                    }
                    distance = min(distance, min(max(d, 1), maxDistance))
                }
            }
            total += distance
        }
        return total
    }

    /// BM25F: for each matched query word, its inverse document frequency times its saturated
    /// term frequency over the fields (each field's count weighted by `fieldWeights` and
    /// normalised by the field's length against the average), in thousandths.
    static func relevance(of facts: SearchMatchFacts, plan: SearchQueryPlan, statistics: SearchCorpusStatistics) -> Int {
        let documents = Double(max(statistics.documentCount, 1))
        var score = 0.0
        for word in plan.query.words.indices {
            var frequency = 0.0
            for field in SearchField.allCases {
                let count = facts.termFrequencies[word][Int(field.rawValue)]
                guard count > 0 else { continue }
                let average = statistics.averageFieldLengths[Int(field.rawValue)]
                let length = Double(facts.fieldLengths[Int(field.rawValue)])
                let norm = average > 0 ? 1 - b + b * length / average : 1
                frequency += fieldWeights[Int(field.rawValue)] * Double(count) / norm
            }
            guard frequency > 0 else { continue }
            let df = Double(min(max(plan.documentFrequencies[word], 1), statistics.documentCount))
            let odds: Double = (documents - df + 0.5) / (df + 0.5)
            let idf: Double = Self.naturalLog(odds + 1)
            let saturated: Double = frequency * (k1 + 1) / (frequency + k1)
            score += idf * saturated
        }
        return Int((score * 1000).rounded())
    }

    /// ln(x) for x ≥ 1, without Foundation: x = m · 2^e with m in [1, 2), ln m from the series of
    /// atanh ((m − 1)/(m + 1)), to about 1e-12.
    static func naturalLog(_ x: Double) -> Double {
        guard x > 0 else { return 0 }
        let exponent = Double(x.exponent)
        let m = x.significand
        let t = (m - 1) / (m + 1), t2 = t * t
        var term = t, sum = 0.0
        var n = 1.0
        while n < 60 {
            sum += term / n
            term *= t2
            n += 2
        }
        return 2 * sum + exponent * 0.693_147_180_559_945_3
    }

    /// The candidates that match `plan`, best first.
    static func rank(_ candidates: [SearchMatchFacts], plan: SearchQueryPlan,
                     statistics: SearchCorpusStatistics? = nil) -> [(facts: SearchMatchFacts, key: SearchRankingKey)] {
        candidates.compactMap { facts in key(for: facts, plan: plan, statistics: statistics).map { (facts, $0) } }
            .sorted { $0.key < $1.key }
    }
}
