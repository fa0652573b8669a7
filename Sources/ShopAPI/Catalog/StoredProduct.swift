/// A product as a store keeps it, with what the import's rules look at besides its fields: its
/// stock, whether it is archived, and its place in catalog order. Value type; `Sendable`.
struct StoredProduct: Sendable, Equatable {
    var product: Product
    var stock: Int
    /// Archived products are out of the catalog (`--replace`), but kept for orders and carts.
    var archived: Bool
    /// Catalog order: the order products were first added (search results come in it).
    var seq: Int64
}
