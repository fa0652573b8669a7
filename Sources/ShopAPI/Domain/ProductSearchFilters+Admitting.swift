extension ProductSearchFilters {
    /// Whether a product with `category`, `brand` and variants priced and stocked as `variants`
    /// passes every filter: the rule each store's SQL follows, written once for the stores that
    /// filter in Swift (the in-memory reference, a scan).
    func admits(category: String, brand: String, variants: [(priceCents: Int, inStock: Bool)]) -> Bool {
        if !categories.isEmpty && !categories.contains(category) { return false }
        if !brands.isEmpty && !brands.contains(brand) { return false }
        if priceMinCents != nil || priceMaxCents != nil {
            let inRange = variants.contains { variant in
                variant.priceCents >= (priceMinCents ?? .min) && variant.priceCents <= (priceMaxCents ?? .max)
            }
            if !inRange { return false }
        }
        if let inStock, variants.contains(where: \.inStock) != inStock { return false }
        return true
    }
}
