/// Shopify's product CSV (the admin's export, and `product_template.csv`): one row per variant,
/// keyed by `Handle`; the product's fields (`Title`, `Body (HTML)`, `Vendor`, `Type`, `Product
/// Category`, `Status`, option names) on its first row only, and rows that carry only one more
/// image of the product (skipped, and counted). protocol.md, section 11, says which columns are
/// read and how; every other column is reported as ignored.
///
/// - `name`: `Title`; `description`: `Body (HTML)` as plain text (`HTMLText`); `brand`: `Vendor`.
/// - `category`: `Type` when given, else `Product Category` (`PresetText.category`), else
///   `Uncategorized`.
/// - `status`: `Status` (active, draft, archived); without it, `Published` TRUE is active and FALSE
///   draft; neither: active.
/// - Options: `OptionN Name`/`OptionN Value`; Shopify's `Title` / `Default Title` (a product
///   without options) gives none.
/// - `sku`: `Variant SKU`, or made up from the handle and option values (`DerivedIdentifiers`).
/// - `price`: `Variant Price`; `stock`: `Variant Inventory Qty` (below zero: 0, counted).
///
/// A product's rows must follow each other, as Shopify writes them: a handle that comes back
/// after another product's rows is an error on that row.
struct ShopifyRowTranslator: PlatformRowTranslator {
    private let handle: Int
    private let title, body, vendor, type, productCategory, published, status: Int?
    private let optionNames, optionValues: [Int?]
    private let sku, price, stock: Int?
    private let currency: String?
    private let columnNames: [String]

    private struct Product {
        var handle: String
        var record: CanonicalCatalogRecord
        var optionNames: [String?]
    }
    private var current: Product?
    private var finishedHandles = Set<String>()
    private var identifiers = DerivedIdentifiers()

    init(header: inout PlatformHeader, options: PlatformImportOptions) throws(PlatformHeaderError) {
        guard let handle = header.use("Handle") else {
            throw PlatformHeaderError(message: "no Handle column: this is not a Shopify product CSV (its columns are Handle, Title, Body (HTML), Vendor, …)")
        }
        self.handle = handle
        title = header.use("Title")
        body = header.use("Body (HTML)")
        vendor = header.use("Vendor")
        type = header.use("Type")
        productCategory = header.use("Product Category")
        published = header.use("Published")
        status = header.use("Status")
        optionNames = (1...3).map { header.use("Option\($0) Name") }
        optionValues = (1...3).map { header.use("Option\($0) Value") }
        sku = header.use("Variant SKU")
        price = header.use("Variant Price")
        stock = header.use("Variant Inventory Qty")
        currency = options.currency
        columnNames = header.names
    }

    func sourceColumn(of column: CanonicalColumn) -> String? {
        let position: Int? = switch column {
        case .handle: handle
        case .sku: sku
        case .name: title
        case .description: body
        case .category: type ?? productCategory
        case .brand: vendor
        case .status: status ?? published
        case .option1Name: optionNames[0]
        case .option2Name: optionNames[1]
        case .option3Name: optionNames[2]
        case .option1Value: optionValues[0]
        case .option2Value: optionValues[1]
        case .option3Value: optionValues[2]
        case .price: price
        case .stock: stock
        case .priceCents, .currency: nil
        }
        return position.map { columnNames[$0] }
    }

    mutating func translate(_ row: PlatformRow, report: inout PlatformImportReport) -> PlatformRowOutcome {
        let handleValue = row[handle]
        if handleValue.isEmpty { return .failed(column: columnNames[handle], message: "empty; every Shopify row names its product's handle") }
        let isFirstRow = current?.handle != handleValue
        if isFirstRow {
            if let previous = current { finishedHandles.insert(previous.handle) }
            if finishedHandles.contains(handleValue) {
                return .failed(column: columnNames[handle], message: "\(CatalogFieldRules.quoted(handleValue)) comes back after another product's rows; a product's rows must follow each other")
            }
            switch startProduct(handleValue, row) {
            case .success(let product): current = product
            case .failure(let failure): return .failed(column: failure.column, message: failure.message)
            }
        }
        let optionValueTexts = optionValues.map { row[$0] }
        let variantTexts = [row[sku], row[price], row[stock]] + optionValueTexts
        if !isFirstRow && variantTexts.allSatisfy(\.isEmpty) {
            report.countSkipped(.imageOnly)
            return .skipped(.imageOnly)
        }
        var product = current!
        var record = product.record
        record.line = row.line
        // Later rows may repeat an option's name; the first row's is the product's.
        for option in 0..<3 where product.optionNames[option] == nil && !row[optionNames[option]].isEmpty {
            product.optionNames[option] = row[optionNames[option]]
        }
        current = product
        var chosenValues: [String] = []
        for (option, columns) in CanonicalColumn.optionColumns.enumerated() {
            let value = optionValueTexts[option]
            guard let name = product.optionNames[option], !value.isEmpty else { continue }
            if name == "Title" && value == "Default Title" { continue }
            record[columns.name] = name
            record[columns.value] = value
            chosenValues.append(value)
        }
        record[.sku] = identifiers.sku(given: row[sku], base: handleValue, parts: chosenValues)
        if let problem = record.setUnitPrice(fromCell: row[price]) {
            return .failed(column: columnNames[price!], message: problem)
        }
        if let problem = record.setStock(fromCell: row[stock], report: &report) {
            return .failed(column: columnNames[stock!], message: problem)
        }
        if let currency { record[.currency] = currency }
        return .record(record)
    }

    private struct Failure: Error {
        let column: String
        let message: String
    }

    /// The product a handle's first row describes: the fields every one of its variants carries.
    private func startProduct(_ handleValue: String, _ row: PlatformRow) -> Result<Product, Failure> {
        var record = CanonicalCatalogRecord(line: row.line)
        record[.handle] = handleValue
        record[.name] = row[title]
        if body != nil { record[.description] = HTMLText.plainText(row[body]) }
        if vendor != nil { record[.brand] = row[vendor] }
        let typeValue = row[type]
        record[.category] = typeValue.isEmpty
            ? PresetText.category(fromPaths: [row[productCategory]]) ?? PresetText.uncategorized : typeValue
        let statusValue = row[status].lowercased()
        switch statusValue {
        case "active", "draft", "archived":
            record[.status] = statusValue
        case "":
            switch row[published].lowercased() {
            case "false": record[.status] = "draft"
            case "true", "": record[.status] = "active"
            default:
                return .failure(Failure(column: columnNames[published!], message: "\(CatalogFieldRules.quoted(row[published])) is not TRUE or FALSE"))
            }
        default:
            return .failure(Failure(column: columnNames[status!], message: "\(CatalogFieldRules.quoted(row[status])) is not active, draft or archived"))
        }
        return .success(Product(handle: handleValue, record: record, optionNames: optionNames.map { row[$0].isEmpty ? nil : row[$0] }))
    }
}
