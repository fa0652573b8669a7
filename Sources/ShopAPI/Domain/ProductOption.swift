/// One option of a variant: the option's name (`Size`) and the variant's value of it (`M`).
/// Immutable value; `Sendable`.
public struct ProductOption: Codable, Sendable, Equatable {
    /// The most option names a product has (Shopify's three).
    public static let maxOptions = 3

    public let name: String
    public let value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
