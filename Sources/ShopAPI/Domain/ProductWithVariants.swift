/// A product with every variant of it: the answer of `catalog.product {handle}`. Immutable value;
/// `Sendable`.
public struct ProductWithVariants: Codable, Sendable, Equatable {
    public let handle: String
    public let name: String
    public let description: String
    public let category: String
    public let brand: String
    /// The product's option names (0…3), in order; each variant has one value per name.
    public let optionNames: [String]
    /// ISO 4217 code of every variant's price.
    public let currency: String
    /// In the order they were added (catalog order); never empty.
    public let variants: [ProductVariant]

    public init(handle: String, name: String, description: String, category: String, brand: String, optionNames: [String],
                currency: String, variants: [ProductVariant]) {
        self.handle = handle
        self.name = name
        self.description = description
        self.category = category
        self.brand = brand
        self.optionNames = optionNames
        self.currency = currency
        self.variants = variants
    }
}

/// One variant of a `ProductWithVariants`, with its stock. Immutable value; `Sendable`.
public struct ProductVariant: Codable, Sendable, Equatable {
    public let sku: String
    public let options: [ProductOption]
    public let priceCents: Int
    /// Units available now.
    public let available: Int
    /// `available > 0`.
    public let inStock: Bool

    public init(sku: String, options: [ProductOption], priceCents: Int, available: Int) {
        self.sku = sku
        self.options = options
        self.priceCents = priceCents
        self.available = available
        inStock = available > 0
    }
}
