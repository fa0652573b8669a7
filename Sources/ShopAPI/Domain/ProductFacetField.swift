/// A product field `catalog.search` can count matching products by (`facets`). Value type;
/// `Sendable`.
public enum ProductFacetField: String, Codable, Sendable, CaseIterable {
    case category
    case brand
}
