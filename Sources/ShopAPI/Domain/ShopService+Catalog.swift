// MARK: - Catalog and inventory reads

extension ShopService {
    /// Products in catalog order (the order they were first added), one entry per product with
    /// its variants, `limit` per page (clamped to `1...ShopLimits.maxPageSize`; below 1 means the
    /// default). `category` filters exactly. A `nil` or empty `cursor` starts at the beginning; a
    /// cursor not from this listing throws `.invalidCursor`. One statement, or two in one snapshot
    /// when a product of the page has more than one variant: the page's products, then their variants.
    public func listCatalog(cursor: String?, limit: Int, category: String?, interruption: (any ShopInterruption)?) throws -> CatalogPage {
        var afterSeq: Int64?
        if let cursor, !cursor.isEmpty {
            afterSeq = try PageCursor.catalogPosition(cursor)
        }
        let pageSize = Self.pageSize(limit)
        let (found, items) = try store.read(interruption: interruption) { transaction in
            let found = try transaction.products(afterSeq: afterSeq, category: category, limit: pageSize + 1)
            return (found, try Self.items(found.prefix(pageSize).map(\.listed), in: transaction))
        }
        let nextCursor = found.count > pageSize ? found.prefix(pageSize).last.map { PageCursor.catalog(afterSeq: $0.seq) } : nil
        return CatalogPage(items: items, nextCursor: nextCursor)
    }

    /// The entries of `listed`, in its order: a product of one variant as that variant's one
    /// choice, the others with their variants read in one statement (none when every product has
    /// one variant, as most do).
    static func items(_ listed: [ListedProduct], in transaction: any ShopReadTransaction) throws -> [CatalogItem] {
        let handles = listed.filter(\.hasOtherVariants).map(\.first.handle)
        let choices = handles.isEmpty ? [:] : try transaction.variantChoices(handles: handles)
        return listed.map { product in
            // The variants' statement sees the same snapshot, so it finds them; the product's own
            // choice stands in should it not.
            let variants = product.hasOtherVariants ? choices[product.first.handle] ?? [product.onlyChoice] : [product.onlyChoice]
            return CatalogItem(first: product.first, variants: variants)
        }
    }

    /// The product `handle` with every variant of it and their levels; `.notFound(entity:
    /// "product")` when there is none, or it is a draft or archived.
    public func catalogProduct(handle: String, interruption: (any ShopInterruption)?) throws -> ProductWithVariants {
        let variants = try store.readOneStatement(interruption: interruption) { try $0.productVariants(handle: handle) }
        guard let first = variants.first?.product else { throw ShopError.notFound(entity: "product", id: handle) }
        return ProductWithVariants(
            handle: first.handle, name: first.name, description: first.description, category: first.category, brand: first.brand,
            optionNames: first.options.map(\.name), currency: first.currency,
            variants: variants.map { ProductVariant(sku: $0.product.sku, options: $0.product.options, priceCents: $0.product.priceCents,
                                                    available: $0.available) })
    }

    /// How many products the catalog holds (drafts and archived ones not counted; a product counts
    /// once, whatever its variants), only `category`'s when given.
    public func countProducts(category: String?, interruption: (any ShopInterruption)?) throws -> ProductCount {
        ProductCount(count: try store.readOneStatement(interruption: interruption) { try $0.productCount(category: category) })
    }

    /// The variant with `sku`, with its product's fields; `.notFound(entity: "product")` if there
    /// is none (or its product is a draft or archived).
    public func product(sku: String, interruption: (any ShopInterruption)?) throws -> Product {
        let found = try store.readOneStatement(interruption: interruption) { try $0.product(sku: sku) }
        guard let found else { throw ShopError.notFound(entity: "product", id: sku) }
        return found
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
