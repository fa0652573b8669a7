import XCTest
@testable import ShopAPI

/// `SearchTypoTolerance`, `SearchEditDistance` and `SearchTypoCandidates`: which words a typo
/// reaches, checked against a brute-force reference, and how many vocabulary words a lookup visits.
final class SearchTypoCandidatesTests: XCTestCase {
    /// Optimal string alignment distance, the textbook full table.
    private func referenceDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }

    private static let syllables = ["ka", "ri", "to", "ve", "mor", "an", "zu", "pe", "lor", "da", "st", "re", "in",
                                    "gr", "ex", "pr", "es", "so", "ma", "chi", "ne", "er", "ble", "nd", "co", "ff",
                                    "ee", "sh", "th", "ing", "ion", "al", "ou", "ck", "wa", "li", "tu", "be", "ho"]

    /// `count` distinct words of 1–5 syllables (so they share prefixes as a language does), plus
    /// some real words, from a fixed seed.
    private func syntheticVocabulary(count: Int) -> (vocabulary: SearchMemoryVocabulary, words: [String]) {
        var random = SplitMix64(seed: 42)
        var frequencies: [String: Int] = ["espresso": 30, "grinder": 40, "dishwasher": 5, "flashlight": 9, "machine": 50]
        while frequencies.count < count {
            let word = (0...random.next(below: 5)).map { _ in random.pick(Self.syllables) }.joined()
            if word.count >= 3 { frequencies[word, default: 0] += 1 + random.next(below: 20) }
        }
        return (SearchMemoryVocabulary(frequencies: frequencies), Array(frequencies.keys))
    }

    func test_budget_isOneFromFiveLetters_twoFromNine_noneWithDigits() {
        XCTAssertEqual(SearchTypoTolerance.budget(for: "gren"), 0)
        XCTAssertEqual(SearchTypoTolerance.budget(for: "grnder"), 1)
        XCTAssertEqual(SearchTypoTolerance.budget(for: "expresso"), 1)
        XCTAssertEqual(SearchTypoTolerance.budget(for: "dubmbellz"), 2)
        XCTAssertEqual(SearchTypoTolerance.budget(for: "brzenc001"), 0)
        XCTAssertEqual(SearchTypoTolerance.budget(for: "10000mah"), 0)
        XCTAssertEqual(SearchTypoTolerance.budget(for: "galaxys24"), 0)
    }

    func test_distance_countsASwapAsOneEdit_andStopsAtTheBound() {
        func d(_ a: String, _ b: String, _ bound: Int) -> Int? {
            SearchEditDistance.distance(Array(a.unicodeScalars), Array(b.unicodeScalars), atMost: bound)
        }
        XCTAssertEqual(d("sikllet", "skillet", 1), 1)
        XCTAssertEqual(d("expresso", "espresso", 1), 1)
        XCTAssertEqual(d("grnder", "grinder", 1), 1)
        XCTAssertEqual(d("dubmbellz", "dumbbells", 2), 2)
        XCTAssertNil(d("dubmbellz", "dumbbells", 1))
        XCTAssertEqual(d("same", "same", 0), 0)
        XCTAssertNil(d("a", "abcd", 2))
        XCTAssertEqual(d("", "ab", 2), 2)
    }

    func test_distance_agreesWithTheFullTable_onRandomPairs() {
        var random = SplitMix64(seed: 7)
        let alphabet = Array("abcde".unicodeScalars)
        for _ in 0..<3000 {
            let a = (0..<random.next(below: 9)).map { _ in random.pick(alphabet) }
            let b = (0..<random.next(below: 9)).map { _ in random.pick(alphabet) }
            let reference = referenceDistance(a, b)
            for bound in 0...3 {
                XCTAssertEqual(SearchEditDistance.distance(a, b, atMost: bound), reference <= bound ? reference : nil,
                               "\(String(String.UnicodeScalarView(a))) / \(String(String.UnicodeScalarView(b))) ≤ \(bound)")
            }
        }
    }

    func test_find_returnsExactlyTheWordsABruteForceFinds() throws {
        let (vocabulary, words) = syntheticVocabulary(count: 5000)
        var random = SplitMix64(seed: 9)
        var queries = ["grnder", "expresso", "dihwsasher", "flzashlgiht", "rginder", "machien"]
        for _ in 0..<20 {
            var word = Array(random.pick(words).unicodeScalars)
            let edit = random.next(below: 3)
            let at = 1 + random.next(below: max(word.count - 1, 1))
            if edit == 0, at < word.count { word.remove(at: at) }
            if edit == 1 { word.insert("x", at: min(at, word.count)) }
            if edit == 2, at + 1 < word.count { word.swapAt(at, at + 1) }
            queries.append(String(String.UnicodeScalarView(word)))
        }
        for query in queries {
            let scalars = Array(query.unicodeScalars)
            for budget in 1...2 {
                let found = try SearchTypoCandidates.find(for: query, maxTypos: budget, in: vocabulary).candidates
                let expected = words.compactMap { word -> SearchTypoCandidates.Candidate? in
                    let w = Array(word.unicodeScalars)
                    let inRange = w.first == scalars.first || (scalars.count >= 2 && w.count >= 2 && w[0] == scalars[1] && w[1] == scalars[0])
                    let distance = referenceDistance(scalars, w)
                    return inRange && distance > 0 && distance <= budget ? .init(word: word, typos: distance) : nil
                }
                XCTAssertEqual(Set(found.map(\.word)), Set(expected.map(\.word)), "\(query) ≤ \(budget)")
                for candidate in found {
                    XCTAssertEqual(candidate.typos, referenceDistance(scalars, Array(candidate.word.unicodeScalars)))
                }
                XCTAssertEqual(found.map(\.typos), found.map(\.typos).sorted(), "fewest typos first")
            }
        }
    }

    func test_find_onTheIssuesTypos() throws {
        let vocabulary = SearchMemoryVocabulary(frequencies: ["espresso": 3, "grinder": 4, "grind": 2, "skillet": 1,
                                                             "machine": 5, "gender": 1])
        XCTAssertEqual(try SearchTypoCandidates.find(for: "expresso", maxTypos: 1, in: vocabulary).candidates.map(\.word), ["espresso"])
        XCTAssertEqual(try SearchTypoCandidates.find(for: "grnder", maxTypos: 1, in: vocabulary).candidates.map(\.word), ["gender", "grinder"])
        XCTAssertEqual(try SearchTypoCandidates.find(for: "rginder", maxTypos: 1, in: vocabulary).candidates.map(\.word), ["grinder"],
                       "two first letters swapped")
        XCTAssertEqual(try SearchTypoCandidates.find(for: "sikllet", maxTypos: 1, in: vocabulary).candidates.map(\.word), ["skillet"])
        XCTAssertEqual(try SearchTypoCandidates.find(for: "espresso", maxTypos: 1, in: vocabulary).candidates, [],
                       "the word itself is not a typo")
    }

    /// The cost bound in `SearchTypoCandidates`' documentation: words visited (not time) on a
    /// 300 000-word vocabulary.
    func test_find_visitsAFewThousandWords_ofAThreeHundredThousandWordVocabulary() throws {
        let (vocabulary, _) = syntheticVocabulary(count: 300_000)
        XCTAssertEqual(vocabulary.count, 300_000)
        var report: [String] = []
        for (query, budget, bound) in [("grnder", 1, 1_000), ("expresso", 1, 1_000), ("machien", 1, 1_000),
                                       ("kariveto", 1, 1_000), ("dihwsasher", 2, 5_000), ("flzashlgiht", 2, 5_000),
                                       ("stanleyvertex", 2, 5_000)] {
            let (candidates, visited) = try SearchTypoCandidates.find(for: query, maxTypos: budget, in: vocabulary)
            report.append("\(query)≤\(budget): \(visited) visited, \(candidates.count) found")
            XCTAssertLessThanOrEqual(visited, bound, query)
            XCTAssertGreaterThan(visited, 0)
        }
        print("typo lookup visits on 300 000 words: " + report.joined(separator: "; "))
    }
}
