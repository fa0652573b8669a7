// TEMPORARY (branch search-wire only, deleted at the merge with search-sqlite's ProductSearch).
extension ShopService {
    public func searchProducts(_ request: ProductSearchRequest, interruption: (any ShopInterruption)?) throws -> ProductSearchPage {
        let page = try searchCatalog(query: request.query, limit: request.limit, interruption: interruption)
        if request.cursor == nil { searchStats.record(query: request.query, found: page.total) }
        return page
    }
}
