/// How a query word matched a token of a product, from the most exact to the least: the order of
/// Meilisearch's `exactness` rule (a whole word as typed › a word written together or apart ›
/// a stem › a prefix › a typo). Value type; `Sendable`.
enum SearchMatchKind: UInt8, Comparable, Sendable {
    /// The token is the query word (`grinder` finds "Grinder", `pourover` the joined `pourover`
    /// of "Pour-Over").
    case exact
    /// The token is several query words written together (`pour over` finds `pourover`).
    case joined
    /// Two neighbouring tokens are the query word cut in two (`powerbank` finds "Power Bank").
    case split
    /// The token is one of the owner's synonyms of the query word (`SearchSynonyms`: `tee` finds
    /// "T-Shirt"); ranks as a stem does.
    case synonym
    /// The token has the query word's stem (`machines` finds "Machine").
    case stem
    /// The token begins with the last query word (`grind` finds "Grinder").
    case prefix
    /// The token is within the query word's typo budget (`grnder`… `expresso` finds "Espresso").
    case typo

    static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}
