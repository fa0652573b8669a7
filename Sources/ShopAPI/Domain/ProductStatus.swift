/// Whether shoppers see a product: only `active` products are listed, found, got and sold;
/// `draft` and `archived` ones answer as an unknown SKU, and stay in the store (and, drafts, in
/// `export products`). Every variant of a product has its product's status.
public enum ProductStatus: String, Codable, Sendable, CaseIterable {
    case active, draft, archived

    /// "active, draft, archived": for error messages.
    static let acceptedList = allCases.map(\.rawValue).joined(separator: ", ")
}
