/// A variant as a store keeps it, with what the import's rules look at besides its fields: its
/// stock, its product's status, and its place in catalog order and its product's. Value type;
/// `Sendable`.
struct StoredProduct: Sendable, Equatable {
    var product: Product
    var stock: Int
    /// The product's status; every variant of a product has the same.
    var status: ProductStatus
    /// Catalog order: the order variants were first added.
    var seq: Int64
    /// The `seq` of the product's first variant: the product's place in catalog order (listings
    /// and search results come in it), the same on every variant of the product.
    var productSeq: Int64

    /// Out of the shoppers' sight (a draft or an archived product).
    var archived: Bool { status != .active }
    /// Whether this is its product's first variant, the one listings and search show.
    var isFirstVariant: Bool { seq == productSeq }

    /// This variant with the product fields and status of `other`, a variant of the same product
    /// as an import has decided it since the store read this one.
    func withProductFields(of other: StoredProduct) -> StoredProduct {
        let mine = product
        let theirs = other.product
        let names = theirs.options.map(\.name)
        let options = zip(names, mine.options.map(\.value)).map { ProductOption(name: $0, value: $1) }
        let merged = Product(sku: mine.sku, name: theirs.name, description: theirs.description, category: theirs.category,
                             priceCents: mine.priceCents, currency: mine.currency, handle: mine.handle, brand: theirs.brand,
                             options: names.count == mine.options.count ? options : mine.options)
        return StoredProduct(product: merged, stock: stock, status: other.status, seq: seq, productSeq: productSeq)
    }
}
