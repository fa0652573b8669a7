/// One `catalog.search`: the words a shopper typed, how to order and page the matches, what
/// they must be (`filters`), which fields to count them by (`facets`) and whether to say where
/// each item matched (`highlights`). An empty `query` browses: every product that passes the
/// filters. Value type; `Sendable`.
public struct ProductSearchRequest: Sendable, Equatable {
    public var query: String
    public var sort: ProductSearchSort
    /// Products per page; the service clamps it to `1...ShopLimits.maxSearchResults` (below 1
    /// means `ShopLimits.defaultSearchPageSize`).
    public var limit: Int
    /// A previous page's `nextCursor` for the same query, filters and sort; nil for the first page.
    public var cursor: String?
    public var filters: ProductSearchFilters
    public var facets: [ProductFacetField]
    public var highlights: Bool

    public init(query: String, sort: ProductSearchSort = .relevance, limit: Int = ShopLimits.defaultSearchPageSize,
                cursor: String? = nil, filters: ProductSearchFilters = ProductSearchFilters(),
                facets: [ProductFacetField] = [], highlights: Bool = false) {
        self.query = query
        self.sort = sort
        self.limit = limit
        self.cursor = cursor
        self.filters = filters
        self.facets = facets
        self.highlights = highlights
    }
}
