/// The columns of a catalog file (a CSV header's names, an NDJSON object's members), in the order
/// `export products` writes them. Names are case-sensitive and spelled as in protocol.md.
public enum CatalogColumn: String, CaseIterable, Sendable {
    case sku, name, description, category, priceCents, currency, stock

    /// "sku, name, description, category, priceCents, currency, stock": for error messages.
    public static let acceptedList = allCases.map(\.rawValue).joined(separator: ", ")

    /// The column whose name differs from `name` only in letter case, for a "did you mean" hint.
    static func caseInsensitiveMatch(_ name: String) -> CatalogColumn? {
        let lowered = name.lowercased()
        return allCases.first { $0.rawValue.lowercased() == lowered }
    }
}
