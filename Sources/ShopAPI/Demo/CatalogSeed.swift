/// The deterministic demo catalog written when a database is created: 240 products, `SKU-0001`
/// … `SKU-0240`, 40 in each of 6 categories (SKUs cycle through the categories in the order
/// books, coffee, electronics, garden, kitchen, toys). Names are "<adjective> <noun>" (unique);
/// descriptions, prices ($5–$250) and stock (5…200) come from a fixed-seed SplitMix64, so every
/// database starts identical. `soldOutSkus` start with stock 0.
enum CatalogSeed {
    static let productCount = 240
    /// Products seeded with no stock: SKU-0013 (a book) and SKU-0131 (a kitchen item).
    static let soldOutSkus: Set<String> = ["SKU-0013", "SKU-0131"]
    static let stockRange = 5...200
    private static let randomSeed: UInt64 = 0x5EED_5409_C0FF_EE01

    /// One seeded product and its starting stock.
    struct Entry: Equatable {
        let product: Product
        let stock: Int
    }

    /// `SKU-0001` for 1.
    static func sku(_ number: Int) -> String {
        let digits = String(number)
        return "SKU-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// The whole catalog, in SKU order. Pure: the same every call.
    static func entries() -> [Entry] {
        var random = SplitMix64(seed: randomSeed)
        let categories = CatalogWords.categories
        return (1...productCount).map { number in
            let category = categories[(number - 1) % categories.count]
            let index = (number - 1) / categories.count  // 0..<40 within the category
            let noun = category.nouns[index % category.nouns.count]
            // Distinct (noun, adjective) pairs for the first 64 indexes of a category.
            let adjectives = CatalogWords.adjectives
            let adjective = adjectives[(index / category.nouns.count + index) % adjectives.count]
            let name = "\(adjective) \(noun)"
            let description = "\(name), \(random.pick(category.features)). \(random.pick(CatalogWords.closings))"
            let dollars = category.dollars.lowerBound + random.next(below: category.dollars.count)
            let priceCents = dollars * 100 + random.pick(CatalogWords.centEndings)
            let stock = stockRange.lowerBound + random.next(below: stockRange.count)
            let product = Product(
                sku: sku(number), name: name, description: description, category: category.name,
                priceCents: priceCents, currency: ShopCurrency.defaultCode
            )
            return Entry(product: product, stock: soldOutSkus.contains(product.sku) ? 0 : stock)
        }
    }

    /// Writes the catalog and its stock. Call inside the migration's transaction.
    static func insert(into connection: SQLiteConnection) throws {
        for entry in entries() {
            let product = entry.product
            try connection.run(
                "INSERT INTO products (sku, name, description, category, price_cents, currency) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                product.sku, product.name, product.description, product.category, product.priceCents, product.currency
            )
            try connection.run("INSERT INTO stock (sku, available) VALUES (?1, ?2)", product.sku, entry.stock)
        }
    }
}
