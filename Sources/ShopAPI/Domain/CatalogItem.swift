/// One product as `catalog.list` and `catalog.search` return it: today's item (the SKU and price
/// of the product's first variant, with the product's fields), then the product's handle, brand,
/// price range, whether any variant is in stock, and its variants to choose from. A product with
/// one variant and no options is its one variant's `Product` plus these members. Immutable value;
/// `Sendable`.
public struct CatalogItem: Codable, Sendable, Equatable {
    public let sku: String
    public let name: String
    public let description: String
    public let category: String
    public let priceCents: Int
    public let currency: String
    public let handle: String
    public let brand: String
    /// The lowest and highest price of the product's variants, in minor units.
    public let priceMinCents: Int
    public let priceMaxCents: Int
    /// Whether any variant has a unit available.
    public let inStock: Bool
    /// Every variant of the product, in the order they were added; the first is `sku`'s.
    public let variants: [VariantChoice]
    /// Where a search matched this product, when the search asked (`ProductSearchRequest.highlights`);
    /// nil (omitted from JSON) otherwise, and always in listings.
    public private(set) var highlights: CatalogItemHighlights?

    /// The entry of `first` (the product's first variant) with the choices `variants` (never
    /// empty; `first`'s among them).
    public init(first: Product, variants: [VariantChoice]) {
        sku = first.sku
        name = first.name
        description = first.description
        category = first.category
        priceCents = first.priceCents
        currency = first.currency
        handle = first.handle
        brand = first.brand
        priceMinCents = variants.map(\.priceCents).min() ?? first.priceCents
        priceMaxCents = variants.map(\.priceCents).max() ?? first.priceCents
        inStock = variants.contains(where: \.inStock)
        self.variants = variants
    }

    /// This entry with `highlights`.
    public func highlighted(_ highlights: CatalogItemHighlights) -> CatalogItem {
        var item = self
        item.highlights = highlights
        return item
    }
}

/// One variant as a listing offers it: enough to choose it and put it in a cart. Immutable value;
/// `Sendable`.
public struct VariantChoice: Codable, Sendable, Equatable {
    public let sku: String
    /// One value per option name of the product, in its order; empty without options.
    public let options: [ProductOption]
    public let priceCents: Int
    /// Whether a unit is available.
    public let inStock: Bool

    public init(sku: String, options: [ProductOption], priceCents: Int, inStock: Bool) {
        self.sku = sku
        self.options = options
        self.priceCents = priceCents
        self.inStock = inStock
    }
}
