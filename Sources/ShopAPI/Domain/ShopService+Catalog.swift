// MARK: - Catalog and inventory reads

extension ShopService {
    /// Products ordered by SKU, `limit` per page (clamped to `1...ShopLimits.maxPageSize`; below 1
    /// means the default). `category` filters exactly. A `nil` or empty `cursor` starts at the
    /// beginning; a cursor not from this listing throws `.invalidCursor`.
    public func listCatalog(cursor: String?, limit: Int, category: String?, interruption: (any ShopInterruption)?) throws -> CatalogPage {
        var afterSku: String?
        if let cursor, !cursor.isEmpty {
            afterSku = try PageCursor.catalogPosition(cursor)
        }
        let pageSize = Self.pageSize(limit)
        let found = try store.readOneStatement(interruption: interruption) { transaction in
            try transaction.products(afterSku: afterSku, category: category, limit: pageSize + 1)
        }
        let items = Array(found.prefix(pageSize))
        let nextCursor = found.count > pageSize ? items.last.map { PageCursor.catalog(afterSku: $0.sku) } : nil
        return CatalogPage(items: items, nextCursor: nextCursor)
    }

    /// The product with `sku`; `.notFound(entity: "product")` if there is none (or it was archived).
    /// How many products the catalog holds (archived ones not counted), only `category`'s when given.
    public func countProducts(category: String?, interruption: (any ShopInterruption)?) throws -> ProductCount {
        ProductCount(count: try store.readOneStatement(interruption: interruption) { try $0.productCount(category: category) })
    }

    public func product(sku: String, interruption: (any ShopInterruption)?) throws -> Product {
        let found = try store.readOneStatement(interruption: interruption) { try $0.product(sku: sku) }
        guard let found else { throw ShopError.notFound(entity: "product", id: sku) }
        return found
    }

    /// Products whose name and category have every word of `query` (`SearchMatching`: words of
    /// three characters or more also match as prefixes), case- and accent-insensitively, in
    /// catalog order: the order products were first added. Punctuation in `query` only separates
    /// words (it is never query syntax), so a query without letters or digits finds nothing.
    /// `limit` is clamped to `1...ShopLimits.maxSearchResults` (below 1 means the default page size).
    public func searchCatalog(query: String, limit: Int, interruption: (any ShopInterruption)?) throws -> ProductList {
        let terms = SearchTerms.words(in: query)
        guard !terms.isEmpty else { return ProductList(items: []) }
        let pageSize = Self.pageSize(limit, maximum: ShopLimits.maxSearchResults)
        let found = try store.read(interruption: interruption) { transaction in
            guard let groups = try SearchMatching.wordGroups(for: terms, in: transaction) else { return [Product]() }
            return try transaction.searchProducts(wordGroups: groups, limit: pageSize)
        }
        return ProductList(items: found)
    }

    /// Stock of each SKU, in request order (duplicates answered each time), from one snapshot.
    /// An unknown SKU throws `.notFound(entity: "product")`. The binding enforces
    /// `ShopLimits.maxSkusPerCheck`.
    public func checkInventory(skus: [String], interruption: (any ShopInterruption)?) throws -> InventoryLevels {
        let levels = try store.read(interruption: interruption) { transaction in
            try skus.map { sku in
                guard let available = try transaction.available(sku: sku) else {
                    throw ShopError.notFound(entity: "product", id: sku)
                }
                return StockLevel(sku: sku, available: available)
            }
        }
        return InventoryLevels(levels: levels)
    }
}
