@testable import ShopAPI

extension ShopService {
    /// The first page of `query` (relevance order), at most `limit` items.
    func searchItems(_ query: String, limit: Int = ShopLimits.maxSearchResults) throws -> [CatalogItem] {
        try searchProducts(ProductSearchRequest(query: query, limit: limit), interruption: nil).items
    }
}
