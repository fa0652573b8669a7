/// The result of `catalog.search`: in catalog order (the order products were first added), at
/// most `ShopLimits.maxSearchResults`.
/// Immutable value; `Sendable`.
public struct ProductList: Codable, Sendable, Equatable {
    public let items: [Product]

    public init(items: [Product]) {
        self.items = items
    }
}
