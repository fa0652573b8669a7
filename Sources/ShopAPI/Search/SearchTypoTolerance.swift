/// How many typos a query word may have, Meilisearch's rule: none below 5 letters, 1 from 5,
/// 2 from 9 (counted in Unicode scalars of the folded word), and none at all for a word with a
/// digit (numbers, sizes, model codes, SKUs: `v60` must not find `v30`). A typo is one edit of
/// Damerau–Levenshtein (optimal string alignment): a letter inserted, deleted, replaced, or two
/// neighbours swapped. Pure; thread-safe.
enum SearchTypoTolerance {
    static let oneTypoMinimumLength = 5
    static let twoTyposMinimumLength = 9

    /// The number of typos `word` may have.
    static func budget(for word: String) -> Int {
        if SearchAnalyzer.hasDigits(word) { return 0 }
        let length = word.unicodeScalars.count
        if length >= twoTyposMinimumLength { return 2 }
        if length >= oneTypoMinimumLength { return 1 }
        return 0
    }
}
