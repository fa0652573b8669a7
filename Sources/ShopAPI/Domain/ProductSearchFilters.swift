/// What a product must be to appear in `catalog.search`, besides matching the query. Each filter
/// left empty or nil lets every product through; filters combine with AND. Value type; `Sendable`.
public struct ProductSearchFilters: Codable, Sendable, Equatable {
    /// The product's category is one of these, exactly (any when empty).
    public var categories: [String]
    /// The product's brand is one of these, exactly (any when empty).
    public var brands: [String]
    /// Some variant costs at least this many minor units.
    public var priceMinCents: Int?
    /// Some variant costs at most this many minor units (with `priceMinCents`: one variant within both).
    public var priceMaxCents: Int?
    /// `true`: some variant has a unit available; `false`: none has; nil: either.
    public var inStock: Bool?

    public init(categories: [String] = [], brands: [String] = [], priceMinCents: Int? = nil,
                priceMaxCents: Int? = nil, inStock: Bool? = nil) {
        self.categories = categories
        self.brands = brands
        self.priceMinCents = priceMinCents
        self.priceMaxCents = priceMaxCents
        self.inStock = inStock
    }

    /// Whether no filter is set.
    public var isEmpty: Bool {
        categories.isEmpty && brands.isEmpty && priceMinCents == nil && priceMaxCents == nil && inStock == nil
    }
}
