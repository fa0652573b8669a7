/// Medusa v2's product CSV (the admin's import template and its export): one row per variant,
/// each with its product's columns filled in, keyed by `Product Handle`; one price column per
/// currency. Both spellings Medusa has used are read: `Variant Price EUR` and `Variant Option 1
/// Name` (the current template), `Price EUR` and `Option 1 Name` (2024). protocol.md, section
/// 11, says which columns are read and how; every other column is reported as ignored.
///
/// - The price column: the one in `--currency`'s code (an error naming the file's currencies
///   when there is none), else the first in the file; the other price columns are ignored.
///   Records carry that currency. A price column for a region (`Variant Price [Europe]`) is ignored.
///   `Variant Price EUR` is in currency units (`29.5`: `price`); the 2024 spelling `Price EUR` is
///   in the currency's minor units, as Medusa wrote amounts then (its template prices the mug the
///   current one sells at `10` at `1000`): `priceCents`.
/// - `status`: `Product Status` published is active; draft and proposed are draft; rejected is
///   archived; empty is draft (Medusa's own default).
/// - `category`: `Product Type` (2024's template), else `Uncategorized`. Medusa's files have no brand.
/// - Options: `Variant Option N Name`/`Value` that have a value, at most 3.
/// - `sku`: `Variant SKU`, or made up from the handle and option values (`DerivedIdentifiers`);
///   the template leaves every SKU empty. `stock`: `Variant Inventory Quantity`, when the file has it.
struct MedusaRowTranslator: PlatformRowTranslator {
    private let handle: Int
    private let title, productDescription, status, type, sku, stock: Int?
    private let options: [(name: Int, value: Int)]
    private let price: Int
    private let priceCurrency: String
    /// Whether the price column is 2024's `Price EUR`, in minor units.
    private let priceInMinorUnits: Bool
    private let columnNames: [String]
    private var identifiers = DerivedIdentifiers()

    init(header: inout PlatformHeader, options chosen: PlatformImportOptions) throws(PlatformHeaderError) {
        guard let handle = header.use("Product Handle") else {
            throw PlatformHeaderError(message: "no Product Handle column: this is not a Medusa product CSV (its columns are Product Id, Product Handle, Product Title, …)")
        }
        self.handle = handle
        title = header.use("Product Title")
        productDescription = header.use("Product Description")
        status = header.use("Product Status")
        type = header.use("Product Type")
        sku = header.use("Variant SKU")
        stock = header.use("Variant Inventory Quantity")
        var pairs: [(name: Int, value: Int)] = []
        for number in 1...3 {
            guard let name = header.use(anyOf: ["Variant Option \(number) Name", "Option \(number) Name"]),
                  let value = header.use(anyOf: ["Variant Option \(number) Value", "Option \(number) Value"]) else { continue }
            pairs.append((name, value))
        }
        options = pairs
        let prices = (header.columns(prefix: "Variant Price ").map { ($0.position, $0.word, false) }
            + header.columns(prefix: "Price ").map { ($0.position, $0.word, true) })
            .filter { Self.isCurrencyCode($0.1) }
            .sorted { $0.0 < $1.0 }
            .map { (position: $0.0, word: $0.1, minorUnits: $0.2) }
        let codes = prices.map { $0.word.uppercased() }
        guard !prices.isEmpty else {
            throw PlatformHeaderError(message: "no price column (Variant Price EUR, Variant Price USD, …): this is not a Medusa product CSV, or it has no prices")
        }
        let index: Int
        if let wanted = chosen.currency {
            guard let found = codes.firstIndex(of: wanted) else {
                throw PlatformHeaderError(message: "no price in \(wanted): the file has prices in \(codes.joined(separator: ", ")); choose one with --currency")
            }
            index = found
        } else {
            index = 0
        }
        price = prices[index].position
        priceCurrency = codes[index]
        priceInMinorUnits = prices[index].minorUnits
        header.markUsed(price)
        columnNames = header.names
    }

    func sourceColumn(of column: CanonicalColumn) -> String? {
        let position: Int? = switch column {
        case .handle: handle
        case .sku: sku
        case .name: title
        case .description: productDescription
        case .category: type
        case .status: status
        case .price, .priceCents, .currency: price
        case .stock: stock
        case .option1Name, .option2Name, .option3Name: options.first?.name
        case .option1Value, .option2Value, .option3Value: options.first?.value
        case .brand: nil
        }
        return position.map { columnNames[$0] }
    }

    mutating func translate(_ row: PlatformRow, report: inout PlatformImportReport) -> PlatformRowOutcome {
        let handleValue = row[handle]
        if handleValue.isEmpty { return .failed(column: columnNames[handle], message: "empty; every Medusa row names its product's handle") }
        var record = CanonicalCatalogRecord(line: row.line)
        record[.handle] = handleValue
        record[.name] = row[title]
        if productDescription != nil { record[.description] = row[productDescription] }
        let typeValue = row[type]
        record[.category] = typeValue.isEmpty ? PresetText.uncategorized : typeValue
        switch row[status].lowercased() {
        case "published": record[.status] = "active"
        case "draft", "proposed", "": record[.status] = "draft"
        case "rejected": record[.status] = "archived"
        default:
            return .failed(column: columnNames[status!], message: "\(CatalogFieldRules.quoted(row[status])) is not published, draft, proposed or rejected")
        }
        var values: [String] = []
        for (name, value) in options {
            let optionValue = row[value]
            guard !optionValue.isEmpty else { continue }
            let columns = CanonicalColumn.optionColumns[values.count]
            record[columns.name] = row[name]
            record[columns.value] = optionValue
            values.append(optionValue)
        }
        record[.sku] = identifiers.sku(given: row[sku], base: handleValue, parts: values)
        let priceText = row[price]
        if !priceText.isEmpty && priceInMinorUnits {
            guard let cents = PresetText.price(priceText), !cents.contains(".") else {
                return .failed(column: columnNames[price], message: "\(CatalogFieldRules.quoted(priceText)) is not a whole number of the currency's minor units (such as 1999)")
            }
            record[.priceCents] = cents
        } else if let problem = record.setUnitPrice(fromCell: priceText) {
            return .failed(column: columnNames[price], message: problem)
        }
        record[.currency] = priceCurrency
        if let problem = record.setStock(fromCell: row[stock], report: &report) {
            return .failed(column: columnNames[stock!], message: problem)
        }
        return .record(record)
    }

    /// Three ASCII letters (`EUR`, `usd`): a price column's currency, not a region's name.
    private static func isCurrencyCode(_ word: String) -> Bool {
        word.utf8.count == 3 && word.utf8.allSatisfy { ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) }
    }
}
