/// The columns of a catalog file (a CSV header's names, an NDJSON object's members). Names are
/// case-sensitive and spelled as in protocol.md. `export products` writes `exported`, in that
/// order; `price` (major units) is read only, and converted to `priceCents` on import.
public enum CatalogColumn: String, CaseIterable, Sendable {
    case sku, name, description, category, priceCents, currency, stock
    // Products with variants: rows with the same handle are the variants of one product.
    case handle, brand, status, option1Name, option1Value, option2Name, option2Value, option3Name, option3Value
    /// The price in the currency's major units (`19.99`), read exactly (`MajorUnitPrice`).
    case price

    /// The columns `export products` writes, in order (every column but `price`); an import
    /// reads them back exactly.
    public static let exported: [CatalogColumn] = allCases.filter { $0 != .price }

    /// "sku, name, description, category, priceCents, currency, stock, handle, …, price": for error messages.
    public static let acceptedList = allCases.map(\.rawValue).joined(separator: ", ")

    /// The column whose name differs from `name` only in letter case, for a "did you mean" hint.
    static func caseInsensitiveMatch(_ name: String) -> CatalogColumn? {
        let lowered = name.lowercased()
        return allCases.first { $0.rawValue.lowercased() == lowered }
    }
}

extension CatalogColumn {
    /// The option name columns, in order (`option1Name` …).
    static let optionNameColumns: [CatalogColumn] = [.option1Name, .option2Name, .option3Name]
    /// The option value columns, in order (`option1Value` …).
    static let optionValueColumns: [CatalogColumn] = [.option1Value, .option2Value, .option3Value]

    /// Whether the column is a field of the product (the same on every variant of a handle), which
    /// a file may give on the handle's first row only.
    var isProductField: Bool {
        switch self {
        case .name, .description, .category, .brand, .status, .option1Name, .option2Name, .option3Name: true
        default: false
        }
    }

    /// Whether the column is one of the six option columns.
    var isOptionColumn: Bool {
        Self.optionNameColumns.contains(self) || Self.optionValueColumns.contains(self)
    }

    /// Whether an empty CSV cell of the column means "not given": always for the columns of
    /// products with variants (handle, brand, status, options), and for every product field (and
    /// the currency) of a row that gives a handle (filled down from the handle's first row; the
    /// store's currency). Otherwise an empty cell
    /// is a value, checked as for a file without these columns (an empty description clears it,
    /// an empty name is wrong).
    func emptyIsAbsent(withHandle: Bool) -> Bool {
        switch self {
        case .handle, .brand, .status: true
        default: isOptionColumn || (withHandle && (isProductField || self == .currency))
        }
    }
}
