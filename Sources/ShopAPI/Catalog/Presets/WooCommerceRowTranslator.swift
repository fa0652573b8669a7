/// WooCommerce's product CSV (its exporter's file, which its importer reads, and the sample
/// data it ships): one row per product, `Type` saying which kind. protocol.md, section 11, says
/// which columns are read and how; every other column is reported as ignored.
///
/// - `simple`: one product with one variant. `variable`: a product whose variants are the
///   `variation` rows naming it in `Parent` (`id:44`, or its SKU); it must come before them, as
///   WooCommerce writes it. `grouped` and `external` products are skipped and counted (a grouped
///   one has no price or stock of its own; an external one is sold on another site). A `Type` may
///   add `downloadable` or `virtual` (`simple, virtual`): the first kind above counts.
/// - `handle`: WooCommerce's files have none; it is the slug of the product's SKU, else of its
///   name (`DerivedIdentifiers`, unique within the file).
/// - `status`: `Published` 1 or `true` is active; 0 (private), -1 and `false` (draft) are draft.
///   A variation that is not published (not enabled) is skipped and counted.
/// - `category`: the deepest path in `Categories` (`PresetText.category`), else `Uncategorized`.
///   `brand`: the first of `Brands`, when the file has that column.
/// - `description`: `Description` (else `Short description`) as plain text (`HTMLText`), WooCommerce's
///   written-out `\n` read as a line break.
/// - Options: a variation's `Attribute N name`/`Attribute N value(s)` that have a value (an empty
///   value is WooCommerce's "any", and gives no option), at most 3.
/// - `sku`: `SKU`, or, for a variation without one, the parent's SKU (else handle) and the slugs of
///   its option values (`woo-hoodie-blue-no`), unique within the file.
/// - `price`: `Regular price` (a `Sale price` is not kept: it is reported as an ignored column);
///   `stock`: `Stock`, or 0 when it is empty and `In stock?` is 0.
///
/// Values WooCommerce's exporter prefixed with `'` (one starting with `=`, `+`, `-` or `@`) are
/// read without it.
struct WooCommerceRowTranslator: PlatformRowTranslator {
    private let type: Int
    private let id, sku, name, published, shortDescription, description, inStock, stock, regularPrice, categories, brands, parent: Int?
    private let attributes: [(name: Int, value: Int)]
    private let columnNames: [String]
    private let currency: String?

    /// A variable product, kept for its variations.
    private struct Parent {
        var record: CanonicalCatalogRecord
        var skuOrHandle: String
        var attributeNames: [String]
    }
    private var parents: [String: Parent] = [:]
    private var handles = DerivedIdentifiers()
    private var skus = DerivedIdentifiers()

    init(header: inout PlatformHeader, options: PlatformImportOptions) throws(PlatformHeaderError) {
        guard let type = header.use("Type") else {
            throw PlatformHeaderError(message: "no Type column: this is not a WooCommerce product CSV (its columns are ID, Type, SKU, Name, Published, …)")
        }
        self.type = type
        id = header.use("ID")
        sku = header.use("SKU")
        name = header.use("Name")
        published = header.use("Published")
        shortDescription = header.use("Short description")
        description = header.use("Description")
        inStock = header.use("In stock?")
        stock = header.use("Stock")
        regularPrice = header.use("Regular price")
        categories = header.use("Categories")
        brands = header.use("Brands")
        parent = header.use("Parent")
        let names = header.columns(prefix: "Attribute ", suffix: " name")
        let values = header.columns(prefix: "Attribute ", suffix: " value(s)")
        var pairs: [(number: Int, name: Int, value: Int)] = []
        for (namePosition, number) in names {
            guard let numberValue = Int(number), let value = values.first(where: { $0.word == number }) else { continue }
            header.markUsed(namePosition)
            header.markUsed(value.position)
            pairs.append((numberValue, namePosition, value.position))
        }
        attributes = pairs.sorted { $0.number < $1.number }.map { ($0.name, $0.value) }
        columnNames = header.names
        currency = options.currency
    }

    func sourceColumn(of column: CanonicalColumn) -> String? {
        let position: Int? = switch column {
        case .sku: sku
        case .name: name
        case .description: description
        case .category: categories
        case .brand: brands
        case .status: published
        case .price: regularPrice
        case .stock: stock
        case .option1Name, .option2Name, .option3Name: attributes.first?.name
        case .option1Value, .option2Value, .option3Value: attributes.first?.value
        case .handle, .priceCents, .currency: nil
        }
        return position.map { columnNames[$0] }
    }

    private enum Kind: String, CaseIterable {
        case variation, variable, simple, grouped, external
    }

    mutating func translate(_ row: PlatformRow, report: inout PlatformImportReport) -> PlatformRowOutcome {
        let kinds = Set(cell(row, type).lowercased().split(separator: ",").map { PresetText.trimmed(String($0)) })
        guard let kind = Kind.allCases.first(where: { kinds.contains($0.rawValue) }) else {
            return .failed(column: columnNames[type], message: "\(CatalogFieldRules.quoted(cell(row, type))) is not a product type (simple, variable, variation, grouped, external)")
        }
        let skuValue = cell(row, sku)
        if !skuValue.isEmpty { skus.register(skuValue) }
        switch kind {
        case .grouped:
            report.countSkipped(.grouped)
            return .skipped(.grouped)
        case .external:
            report.countSkipped(.external)
            return .skipped(.external)
        case .simple, .variable:
            var record: CanonicalCatalogRecord
            switch product(row) {
            case .success(let made): record = made
            case .failure(let failure): return .failed(column: failure.column, message: failure.message)
            }
            if kind == .variable {
                let kept = Parent(record: record, skuOrHandle: skuValue.isEmpty ? record[.handle]! : skuValue,
                                  attributeNames: attributes.map { cell(row, $0.name) })
                if let idValue = Self.idKey(cell(row, id)) { parents[idValue] = kept }
                if !skuValue.isEmpty { parents[skuValue] = kept }
                return .folded
            }
            record[.sku] = skuValue.isEmpty ? skus.make(base: record[.handle]!, parts: []) : skuValue
            return variantFields(row, into: record, report: &report)
        case .variation:
            let parentValue = cell(row, parent)
            let key = parentValue.lowercased().hasPrefix("id:") ? Self.idKey(String(parentValue.dropFirst(3))) : parentValue
            guard let key, let found = parents[key] else {
                let column = parent.map { columnNames[$0] } ?? "Parent"
                return .failed(column: column, message: parentValue.isEmpty
                    ? "empty; a variation names its variable product (id:NN or its SKU)"
                    : "\(CatalogFieldRules.quoted(parentValue)) is not a variable product on a line above")
            }
            switch Self.status(cell(row, published)) {
            case .some("active"): break
            case .some:
                report.countSkipped(.disabledVariation)
                return .skipped(.disabledVariation)
            case nil:
                return .failed(column: columnNames[published!], message: "\(CatalogFieldRules.quoted(cell(row, published))) is not 1, 0, -1, true or false")
            }
            var record = found.record
            record.line = row.line
            var values: [String] = []
            for (index, attribute) in attributes.enumerated() {
                let value = cell(row, attribute.value)
                guard !value.isEmpty else { continue }
                guard values.count < 3 else {
                    return .failed(column: columnNames[attribute.value], message: "a fourth option; shop-rpc keeps at most 3 per product")
                }
                var optionName = cell(row, attribute.name)
                if optionName.isEmpty, index < found.attributeNames.count { optionName = found.attributeNames[index] }
                let columns = CanonicalColumn.optionColumns[values.count]
                record[columns.name] = optionName
                record[columns.value] = value
                values.append(value)
            }
            record[.sku] = skuValue.isEmpty ? skus.make(base: found.skuOrHandle, parts: values) : skuValue
            return variantFields(row, into: record, report: &report)
        }
    }

    private struct Failure: Error {
        let column: String
        let message: String
    }

    /// The product fields of a simple or variable product's row.
    private mutating func product(_ row: PlatformRow) -> Result<CanonicalCatalogRecord, Failure> {
        var record = CanonicalCatalogRecord(line: row.line)
        let nameValue = cell(row, name)
        let skuValue = cell(row, sku)
        let idValue = cell(row, id)
        let base = !PresetText.slug(skuValue).isEmpty ? PresetText.slug(skuValue)
            : !PresetText.slug(nameValue).isEmpty ? PresetText.slug(nameValue) : "product" + (idValue.isEmpty ? "" : "-\(idValue)")
        record[.handle] = handles.make(base: base, parts: [])
        record[.name] = nameValue
        var text = cell(row, description)
        if text.isEmpty { text = cell(row, shortDescription) }
        record[.description] = HTMLText.plainText(text.replacing("\\n", with: "\n"))
        let paths = cell(row, categories).split(separator: ",").map(String.init)
        record[.category] = PresetText.category(fromPaths: paths) ?? PresetText.uncategorized
        if brands != nil {
            let first = cell(row, brands).split(separator: ",").first.map { PresetText.trimmed(String($0)) } ?? ""
            if !first.isEmpty { record[.brand] = first }
        }
        guard let status = Self.status(cell(row, published)) else {
            return .failure(Failure(column: columnNames[published!], message: "\(CatalogFieldRules.quoted(cell(row, published))) is not 1, 0, -1, true or false"))
        }
        record[.status] = status
        return .success(record)
    }

    /// The row's price, stock and currency, on top of `record`.
    private func variantFields(_ row: PlatformRow, into record: CanonicalCatalogRecord, report: inout PlatformImportReport) -> PlatformRowOutcome {
        var record = record
        if let problem = record.setUnitPrice(fromCell: cell(row, regularPrice)) {
            return .failed(column: columnNames[regularPrice!], message: problem)
        }
        let stockText = cell(row, stock)
        if let problem = record.setStock(fromCell: stockText, report: &report) {
            return .failed(column: columnNames[stock!], message: problem)
        }
        if stockText.isEmpty && cell(row, inStock) == "0" {
            record[.stock] = "0"
        }
        if let currency { record[.currency] = currency }
        return .record(record)
    }

    /// `Published` as a status: nil when it is none of WooCommerce's values. Empty is active
    /// (WooCommerce publishes a product the file does not say otherwise of).
    private static func status(_ text: String) -> String? {
        switch text.lowercased() {
        case "1", "true", "": "active"
        case "0", "-1", "false": "draft"
        default: nil
        }
    }

    /// The key a product's ID is kept under (`id:44`), or nil for none.
    private static func idKey(_ text: String) -> String? {
        let trimmed = PresetText.trimmed(text)
        return trimmed.isEmpty ? nil : "id:" + trimmed
    }

    /// The trimmed field, without the `'` WooCommerce's exporter put before a value starting with
    /// `=`, `+`, `-` or `@`.
    private func cell(_ row: PlatformRow, _ position: Int?) -> String {
        let value = row[position]
        guard value.hasPrefix("'"), let next = value.dropFirst().first, "=+-@".contains(next) else { return value }
        return String(value.dropFirst())
    }
}
