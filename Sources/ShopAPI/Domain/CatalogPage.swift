/// One page of `catalog.list`, ordered by SKU. Immutable value; `Sendable`.
public struct CatalogPage: Codable, Sendable, Equatable {
    public let items: [Product]
    /// Opaque; pass it back to get the next page. `nil` (omitted from JSON) on the last page.
    public let nextCursor: String?

    public init(items: [Product], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}
