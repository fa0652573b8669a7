/// Bounded Damerau–Levenshtein distance (optimal string alignment: insertions, deletions,
/// substitutions and swaps of two neighbours each cost 1; a swapped pair is not edited again).
/// `distance(_:_:atMost:)` answers nil as soon as the distance must exceed the bound, so checking
/// a candidate costs O(bound × length) cells rather than O(length²). Pure; thread-safe.
enum SearchEditDistance {
    /// The distance between `a` and `b` when it is at most `bound`, else nil.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost bound: Int) -> Int? {
        if abs(a.count - b.count) > bound { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        let width = b.count + 1
        let outside = bound + 1
        var previous2 = [Int](repeating: outside, count: width)
        var previous = [Int](0..<width)
        var current = [Int](repeating: outside, count: width)
        for i in 1...a.count {
            let low = max(1, i - bound), high = min(b.count, i + bound)
            current[0] = i <= bound ? i : outside
            if low > 1 { current[low - 1] = outside }
            var rowMinimum = current[0]
            for j in low...high {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j - 1] + cost, previous[j] + 1, current[j - 1] + 1)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = min(value, outside)
                rowMinimum = min(rowMinimum, current[j])
            }
            if high < b.count { current[high + 1] = outside }
            if rowMinimum > bound { return nil }
            swap(&previous2, &previous)
            swap(&previous, &current)
        }
        let result = previous[b.count]
        return result <= bound ? result : nil
    }
}
