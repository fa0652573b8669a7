import XCTest
@testable import ShopAPI

// MARK: - Following cursors

extension ShopService {
    /// Every page of the catalog, following `nextCursor` (at most 1000 pages).
    func catalogPages(pageSize: Int, category: String? = nil) throws -> [CatalogPage] {
        var pages: [CatalogPage] = []
        var cursor: String?
        repeat {
            let page = try listCatalog(cursor: cursor, limit: pageSize, category: category, interruption: nil)
            pages.append(page)
            cursor = page.nextCursor
        } while cursor != nil && pages.count < 1000
        return pages
    }

    /// The first variant of every product, in catalog order.
    func allProducts() throws -> [Product] {
        try catalogPages(pageSize: ShopLimits.maxPageSize).flatMap(\.items).map(\.firstVariant)
    }
}

extension CatalogItem {
    /// The product's first variant as `catalog.get` answers it.
    var firstVariant: Product {
        Product(sku: sku, name: name, description: description, category: category, priceCents: priceCents, currency: currency,
                handle: handle, brand: brand, options: variants.first?.options ?? [])
    }
}
