/// The variant cells every preset reads the same way, whatever the platform calls the column:
/// a price in currency units and a stock level. Each sets its canonical column from a non-empty
/// cell and returns nil, or returns the message saying what is wrong with the cell (the caller
/// names the platform's column). An empty cell sets nothing.
extension CanonicalCatalogRecord {
    /// `price` from a cell in currency units (`19.99`, `.5`), as `PresetText.price` reads it.
    mutating func setUnitPrice(fromCell text: String) -> String? {
        guard !text.isEmpty else { return nil }
        guard let units = PresetText.price(text) else {
            return "\(CatalogFieldRules.quoted(text)) is not a price in currency units (such as 19.99)"
        }
        self[.price] = units
        return nil
    }

    /// `stock` from a whole number; a negative one is imported as 0 and counted in `report`.
    mutating func setStock(fromCell text: String, report: inout PlatformImportReport) -> String? {
        guard !text.isEmpty else { return nil }
        guard let level = PresetText.stock(text) else {
            return "\(CatalogFieldRules.quoted(text)) is not a whole number"
        }
        if level.wasNegative { report.negativeStockAsZero += 1 }
        self[.stock] = level.level
        return nil
    }
}
