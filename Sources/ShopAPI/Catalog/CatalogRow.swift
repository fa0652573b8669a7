/// One product row of a catalog file (`shop-rpc import`), as read and checked by the file's reader:
/// the SKU it keys on, and each field the file gives for it. A field the file does not give (a
/// CSV column it has no header for, an NDJSON member a line leaves out) is nil: importing the row
/// keeps that field of an existing product as it is. Members are named as in protocol.md.
///
/// A value; `Sendable`. The reader guarantees the file-level rules (protocol.md, "Catalog files"):
/// every present field is well-formed and in range, no SKU appears twice in one file, and a row
/// with a handle carries its product's fields as the handle's earlier rows gave them
/// (`CatalogVariantGroups`). Whether a row may create a product (a new SKU needs `name`,
/// `category` and a price) depends on the store, and is checked by the import, as is `price`'s
/// number of decimals (the currency's). A row gives at most one of `priceCents` and `price`.
public struct CatalogRow: Sendable, Equatable {
    /// The 1-based line of the file where the row starts (a CSV record may span lines), for errors.
    public var line: Int
    public var sku: String
    public var name: String?
    public var description: String?
    public var category: String?
    /// Price of one unit in the smallest unit of `currency` (cents): minor units.
    public var priceCents: Int?
    /// ISO 4217 code: three capital letters.
    public var currency: String?
    /// The absolute number of units available.
    public var stock: Int?
    /// The product the row is a variant of; nil: the product the SKU has, or a new product whose
    /// handle is the SKU.
    public var handle: String?
    public var brand: String?
    public var status: ProductStatus?
    /// The product's option names (1…3, given in order); nil when the row names none.
    public var optionNames: [String]?
    /// The variant's values, one per option name, in the names' order; nil when the row gives none.
    public var optionValues: [String]?
    /// Price of one unit in the major units of the currency (`19.99`); the import converts it
    /// to minor units with the currency's ISO 4217 exponent (`CurrencyExponent`).
    public var price: MajorUnitPrice?

    public init(line: Int, sku: String, name: String? = nil, description: String? = nil, category: String? = nil,
                priceCents: Int? = nil, currency: String? = nil, stock: Int? = nil, handle: String? = nil, brand: String? = nil,
                status: ProductStatus? = nil, optionNames: [String]? = nil, optionValues: [String]? = nil,
                price: MajorUnitPrice? = nil) {
        self.line = line
        self.sku = sku
        self.name = name
        self.description = description
        self.category = category
        self.priceCents = priceCents
        self.currency = currency
        self.stock = stock
        self.handle = handle
        self.brand = brand
        self.status = status
        self.optionNames = optionNames
        self.optionValues = optionValues
        self.price = price
    }
}

// MARK: - Filling a row from a file's cells

extension CatalogRow {
    /// Sets the field of a text column to `value` (already checked); the option columns are
    /// gathered by `collectOptions`.
    mutating func set(_ column: CatalogColumn, text value: String) {
        switch column {
        case .sku: sku = value
        case .name: name = value
        case .description: description = value
        case .category: category = value
        case .currency: currency = value
        case .handle: handle = value
        case .brand: brand = value
        case .status: status = ProductStatus(rawValue: value)
        default: break
        }
    }

    /// Takes a checked text cell of `column`: an option name or value into `optionNames` or
    /// `optionValues` (by its number; `finishCells` makes them the row's), any other column into
    /// its field. The same for both readers.
    mutating func take(_ column: CatalogColumn, text value: String, optionNames: inout [String?], optionValues: inout [String?]) {
        if let index = CatalogColumn.optionNameColumns.firstIndex(of: column) {
            optionNames[index] = value
        } else if let index = CatalogColumn.optionValueColumns.firstIndex(of: column) {
            optionValues[index] = value
        } else {
            set(column, text: value)
        }
    }

    /// The checks of a whole row once a reader has taken every cell: its options (`collectOptions`)
    /// and at most one of `price` and `priceCents`. Returns what is wrong, in that order.
    mutating func finishCells(optionNames: [String?], optionValues: [String?]) -> [(field: String, message: String)] {
        var problems: [(field: String, message: String)] = []
        if let problem = collectOptions(names: optionNames, values: optionValues) { problems.append(problem) }
        if price != nil && priceCents != nil { problems.append(("price", CatalogFieldRules.bothPrices)) }
        return problems
    }

    /// Sets `optionNames` and `optionValues` from the cells of the option columns (nil: not
    /// given), which must be given from the first on, without a gap. Returns what is wrong, if anything.
    mutating func collectOptions(names: [String?], values: [String?]) -> (field: String, message: String)? {
        for (cells, columns) in [(names, CatalogColumn.optionNameColumns), (values, CatalogColumn.optionValueColumns)] {
            if let gap = cells.firstIndex(of: nil), let after = cells[gap...].firstIndex(where: { $0 != nil }) {
                return (columns[after].rawValue, "given without \(columns[gap].rawValue); options are given from the first on")
            }
        }
        let givenNames = names.compactMap { $0 }
        let givenValues = values.compactMap { $0 }
        optionNames = givenNames.isEmpty ? nil : givenNames
        optionValues = givenValues.isEmpty ? nil : givenValues
        if givenNames.count > 1, Set(givenNames).count != givenNames.count {
            return ("option\(givenNames.count)Name", "two options have the same name")
        }
        return nil
    }
}
