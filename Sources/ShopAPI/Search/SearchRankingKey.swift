/// Where a candidate product ranks for a query: a value compared rule by rule, Meilisearch-style,
/// each rule only breaking the ties of the rules before it. `a < b` means `a` comes first.
///
/// 1. `isIdentifierMatch`: the query is the product's SKU or handle → first;
/// 2. `matchedWords`: more query words matched (dropped words count; filler words do not, so
///    that a `for` in a description cannot outweigh the words that carry the meaning);
/// 3. `typos`: fewer typos in total (each matched word counts its fewest);
/// 4. `proximity`: matched words closer together and in query order (`SearchRanking.proximity`;
///    filler words left out);
/// 5. `attribute`: matched in better fields (name › brand › category › description › sku ›
///    handle: the sum, over matched words but filler, of their best field's rank);
/// 6. `matchedFillers`: more filler words matched (`filters for v60` prefers "Filters for V60");
/// 7. exactness: `nameIsQuery` (the name is the query), then more words matched as typed or written
///    together/apart (`exactWords`), then more matched at least by stem (`stemOrBetterWords`),
///    so exact words come before stems and stems before prefixes and typos;
/// 8. `relevance`: a BM25F score in thousandths, higher first (0 without corpus statistics);
/// 9. `catalogPosition`: the stable tie-break, lower first.
///
/// Every member is an integer or a Boolean, so the order is total and the same on every platform
/// and store. Value type; `Sendable`.
struct SearchRankingKey: Comparable, Sendable {
    var isIdentifierMatch: Bool
    var matchedWords: Int
    var typos: Int
    var proximity: Int
    var attribute: Int
    var matchedFillers: Int
    var nameIsQuery: Bool
    var exactWords: Int
    var stemOrBetterWords: Int
    var relevance: Int
    var catalogPosition: Int

    static func < (a: Self, b: Self) -> Bool {
        if a.isIdentifierMatch != b.isIdentifierMatch { return a.isIdentifierMatch }
        if a.matchedWords != b.matchedWords { return a.matchedWords > b.matchedWords }
        if a.typos != b.typos { return a.typos < b.typos }
        if a.proximity != b.proximity { return a.proximity < b.proximity }
        if a.attribute != b.attribute { return a.attribute < b.attribute }
        if a.matchedFillers != b.matchedFillers { return a.matchedFillers > b.matchedFillers }
        if a.nameIsQuery != b.nameIsQuery { return a.nameIsQuery }
        if a.exactWords != b.exactWords { return a.exactWords > b.exactWords }
        if a.stemOrBetterWords != b.stemOrBetterWords { return a.stemOrBetterWords > b.stemOrBetterWords }
        if a.relevance != b.relevance { return a.relevance > b.relevance }
        return a.catalogPosition < b.catalogPosition
    }
}
