/// The result of `catalog.search`: one entry per product, in catalog order (the order products
/// were first added), at most `ShopLimits.maxSearchResults`.
/// Immutable value; `Sendable`.
public struct ProductList: Codable, Sendable, Equatable {
    public let items: [CatalogItem]

    public init(items: [CatalogItem]) {
        self.items = items
    }
}
