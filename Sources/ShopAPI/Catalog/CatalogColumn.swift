/// The columns of a catalog file (a CSV header's names, an NDJSON object's members). Names are
/// case-sensitive and spelled as in protocol.md. `export products` writes `exported`, in that
/// order; `price` (major units) is read only, and converted to `priceCents` on import.
public enum CatalogColumn: String, CaseIterable, Sendable {
    case sku, name, description, category, priceCents, currency, stock
    /// The price in the currency's major units (`19.99`), read exactly (`MajorUnitPrice`).
    case price

    /// The columns `export products` writes, in order; an import reads them back exactly.
    public static let exported: [CatalogColumn] = [.sku, .name, .description, .category, .priceCents, .currency, .stock]

    /// "sku, name, description, category, priceCents, currency, stock, price": for error messages.
    public static let acceptedList = allCases.map(\.rawValue).joined(separator: ", ")

    /// The column whose name differs from `name` only in letter case, for a "did you mean" hint.
    static func caseInsensitiveMatch(_ name: String) -> CatalogColumn? {
        let lowered = name.lowercased()
        return allCases.first { $0.rawValue.lowercased() == lowered }
    }
}
