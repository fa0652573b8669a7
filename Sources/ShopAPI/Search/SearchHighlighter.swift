/// The parts of a field's text that matched a query, for highlighting: UTF-16 offsets (as LSP
/// and JavaScript count them) into the original text, found by the same analyzer and the same
/// matching (`SearchQueryPlan.matches`) as the ranking, so a highlighted word is one that counted.
/// A prefix match highlights the whole word; a match by parts of a word (`Kiehl` of `Kiehl's`)
/// highlights that word. Pure; thread-safe.
enum SearchHighlighter {
    /// The matched ranges of `text` (read as `field`), sorted, not overlapping, neighbours that
    /// touch merged.
    static func ranges(in text: String, field: SearchField = .name, plan: SearchQueryPlan,
                       analyzer: SearchAnalyzer = SearchAnalyzer()) -> [Range<Int>] {
        let tokens = analyzer.tokens(in: text, field: field)
        var ranges: [Range<Int>] = []
        for (index, token) in tokens.enumerated() {
            let next = SearchDocumentMatcher.nextToken(after: index, in: tokens)
            let matches = plan.matches(of: token, next: next)
            guard !matches.isEmpty else { continue }
            ranges.append(token.utf16Range)
            if let next, matches.contains(where: { $0.kind == .split }) { ranges.append(next.utf16Range) }
        }
        ranges.sort { $0.lowerBound < $1.lowerBound }
        var merged: [Range<Int>] = []
        for range in ranges {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}
