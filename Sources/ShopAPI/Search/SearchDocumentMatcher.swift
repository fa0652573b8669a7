/// Computes a product's `SearchMatchFacts` for a query plan from its fields' text, with the same
/// analyzer that indexed it. Pure; thread-safe.
enum SearchDocumentMatcher {
    /// The facts of `document` at `catalogPosition` for `plan`; `isIdentifierMatch` when the query
    /// is the handle or any one of the SKUs in `document.sku` (separated by spaces).
    static func facts(of document: SearchDocument, catalogPosition: Int, plan: SearchQueryPlan,
                      analyzer: SearchAnalyzer = SearchAnalyzer()) -> SearchMatchFacts {
        var facts = SearchMatchFacts(catalogPosition: catalogPosition, wordCount: plan.query.words.count)
        // `sku` holds every variant's SKU, separated by spaces: the query may be any one of them.
        facts.isIdentifierMatch = document.sku.split(separator: " ").contains { plan.query.isIdentifier(String($0)) }
            || plan.query.isIdentifier(document.handle)
        for field in SearchField.allCases {
            let text = document.text(of: field)
            guard !text.isEmpty else { continue }
            let tokens = analyzer.tokens(in: text, field: field, stemming: plan.firstBytes)
            add(tokens, to: &facts, plan: plan)
            if field == .name {
                let words = tokens.filter { $0.form == .word || $0.form == .part }.map(\.word)
                facts.nameIsQuery = !words.isEmpty && words == plan.query.words.map(\.text)
            }
        }
        return facts
    }

    /// Adds the hits of one field's `tokens` (in position order, as the analyzer gives them).
    static func add(_ tokens: [SearchToken], to facts: inout SearchMatchFacts, plan: SearchQueryPlan) {
        for (index, token) in tokens.enumerated() {
            let field = Int(token.field.rawValue)
            facts.fieldLengths[field] = max(facts.fieldLengths[field], token.endPosition + 1)
            guard plan.firstBytes.containsFirstByte(of: token.word) else { continue }
            let next = nextToken(after: index, in: tokens)
            for match in plan.matches(of: token, next: next) {
                let end = match.kind == .split ? (next?.endPosition ?? token.endPosition) : token.endPosition
                facts.add(SearchMatchFacts.Hit(word: match.word, field: token.field, position: token.position,
                                               endPosition: end, kind: match.kind, typos: match.typos))
            }
        }
    }

    /// The token at the position right after `tokens[index]`'s last one (not a `.joined` one),
    /// looked for among the next few tokens (a word has at most a joined token and its split
    /// pieces after it before the next position).
    static func nextToken(after index: Int, in tokens: [SearchToken]) -> SearchToken? {
        let token = tokens[index]
        var lookahead = index + 1
        while lookahead < tokens.count, lookahead <= index + 6 {
            if tokens[lookahead].position == token.endPosition + 1, tokens[lookahead].form != .joined {
                return tokens[lookahead]
            }
            lookahead += 1
        }
        return nil
    }
}
