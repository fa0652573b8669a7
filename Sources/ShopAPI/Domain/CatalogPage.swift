/// One page of `catalog.list`: one entry per product, in catalog order (the order products were
/// first added, which an export and import keep). Immutable value; `Sendable`.
public struct CatalogPage: Codable, Sendable, Equatable {
    public let items: [CatalogItem]
    /// Opaque; pass it back to get the next page. `nil` (omitted from JSON) on the last page.
    public let nextCursor: String?

    public init(items: [CatalogItem], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}
