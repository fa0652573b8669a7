/// The result of `admin.products.archive`: how many of the given products it archived (those
/// archived already are not counted again). Immutable value; `Sendable`.
public struct ProductsArchived: Codable, Sendable, Equatable {
    public let archived: Int

    public init(archived: Int) {
        self.archived = archived
    }
}
