/// The columns of a canonical catalog record: the names a catalog file's columns (CSV) or
/// members (NDJSON) have once products carry variants and prices in currency units
/// (protocol.md, "Catalog files"). A platform preset writes its records in these names.
enum CanonicalColumn: String, CaseIterable, Sendable {
    case handle, sku, name, description, category, brand, status
    case option1Name, option1Value, option2Name, option2Value, option3Name, option3Value
    case price, priceCents, currency, stock

    /// The option name and value columns, by option (0, 1, 2).
    static let optionColumns: [(name: CanonicalColumn, value: CanonicalColumn)] = [
        (.option1Name, .option1Value), (.option2Name, .option2Value), (.option3Name, .option3Value),
    ]

    /// Whether the value is a JSON number in the record's NDJSON line (`priceCents` and `stock`,
    /// integers); every other value, `price` included, is a JSON string (`"19.99"`), as catalog
    /// files write a price in units so that no JSON reader takes it as floating point.
    var isNumber: Bool { self == .priceCents || self == .stock }
}

/// One row a platform preset made of one row of the platform's file: the line that row starts
/// on, and each canonical column's value as text (nil: the row does not give it). Products with
/// variants come one record per variant, each with its product's fields filled in (handle, name,
/// description, category, brand, status and option names), whatever rows the platform spread
/// them over. `price` is in the currency's units as the platform writes it (`19.99`, digits with
/// at most one point; the import reads it by the currency's exponent); `stock` is a whole number
/// of units, at least 0. A value; `Sendable`.
struct CanonicalCatalogRecord: Sendable, Equatable, CustomStringConvertible {
    /// The 1-based line of the platform's file where the row starts.
    var line: Int
    private var values: [String?] = Array(repeating: nil, count: CanonicalColumn.allCases.count)

    init(line: Int) {
        self.line = line
    }

    subscript(column: CanonicalColumn) -> String? {
        get { values[Self.index(column)] }
        set { values[Self.index(column)] = newValue }
    }

    /// The columns given, in `CanonicalColumn` order, with their values.
    var givenValues: [(column: CanonicalColumn, value: String)] {
        CanonicalColumn.allCases.compactMap { column in self[column].map { (column, $0) } }
    }

    var description: String {
        "\(line): " + givenValues.map { "\($0.column.rawValue)=\($0.value.debugDescription)" }.joined(separator: " ")
    }

    private static func index(_ column: CanonicalColumn) -> Int {
        switch column {
        case .handle: 0
        case .sku: 1
        case .name: 2
        case .description: 3
        case .category: 4
        case .brand: 5
        case .status: 6
        case .option1Name: 7
        case .option1Value: 8
        case .option2Name: 9
        case .option2Value: 10
        case .option3Name: 11
        case .option3Value: 12
        case .price: 13
        case .priceCents: 14
        case .currency: 15
        case .stock: 16
        }
    }
}
