/// One page of `orders.list`, newest first. Immutable value; `Sendable`.
public struct OrderPage: Codable, Sendable, Equatable {
    public let items: [Order]
    /// Opaque; pass it back to get older orders. `nil` (omitted from JSON) on the last page.
    /// Stable: orders placed after the first page was read never shift later pages.
    public let nextCursor: String?

    public init(items: [Order], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}
