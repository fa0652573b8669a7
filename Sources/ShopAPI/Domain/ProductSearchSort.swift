/// The order of `catalog.search`'s results. `relevance` is the ranking protocol.md describes rule
/// by rule (`SearchRankingKey`); the others sort the matching products by one field and break
/// ties by relevance. Value type; `Sendable`.
public enum ProductSearchSort: String, Codable, Sendable, CaseIterable {
    case relevance
    /// Lowest variant price first.
    case priceAscending = "price-asc"
    /// Highest variant price first.
    case priceDescending = "price-desc"
    /// Products added to the catalog last first (highest catalog position).
    case newest
    /// By name, case- and accent-insensitively (`SearchFolding`), then by catalog position.
    case name
}
