// MARK: - Search

extension ShopService {
    /// The page of products `request` asks for (`ProductSearch`: relevance ranking with typos,
    /// stems, joined and split words and word dropping; filters, sorts, facets over every match,
    /// highlights), with the owner's synonyms, read in one snapshot. `request.limit` is clamped to
    /// `1...ShopLimits.maxSearchResults` (below 1 means `ShopLimits.defaultSearchPageSize`). A
    /// first page is counted in `searchStats`.
    /// - Throws: `.invalidCursor` for a cursor not from `catalog.search`; store errors.
    ///
    /// ```swift
    /// var request = ProductSearchRequest(query: "grinder", facets: [.brand])
    /// let first = try service.searchProducts(request, interruption: nil)
    /// request.cursor = first.nextCursor
    /// let second = try service.searchProducts(request, interruption: nil)
    /// ```
    public func searchProducts(_ request: ProductSearchRequest, interruption: (any ShopInterruption)?) throws -> ProductSearchPage {
        var offset = 0
        if let cursor = request.cursor, !cursor.isEmpty {
            offset = try PageCursor.searchOffset(cursor)
        }
        let pageSize = request.limit < 1 ? ShopLimits.defaultSearchPageSize : min(request.limit, ShopLimits.maxSearchResults)
        let page = try store.read(interruption: interruption) { transaction in
            try ProductSearch.page(for: request, offset: offset, pageSize: pageSize,
                                   synonyms: try self.searchSynonymIndex(in: transaction), in: transaction)
        }
        if request.cursor == nil { searchStats.record(query: request.query, found: page.total) }
        return page
    }
}
