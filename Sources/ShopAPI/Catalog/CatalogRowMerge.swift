/// The import's rules for one row against the variant the store has under its SKU, if any, and
/// the product the row's handle names (protocol.md, section 9). The one place they are written:
/// both stores apply rows through it (SQLite row by row, PostgreSQL a batch at a time), and so do
/// the admin methods that add or change products. Pure; thread-safe.
///
/// - A new SKU of a new product needs `name`, `category` and a price (`priceCents`, or `price` in
///   major units, converted with the store currency's ISO 4217 exponent); `description` and
///   `brand` default to "", `currency` to the store's, `stock` to 0, `status` to active. A new SKU
///   whose `handle` the store has is a new variant of that product: it needs a price, and takes
///   the product's fields unless the row gives them.
/// - For an existing SKU a field the row gives sets it, a field it leaves out keeps it. A product
///   field (name, description, category, brand, status, option names) set on one variant is set
///   on every variant of its product (`productChanged`). An archived product the row lists comes
///   back into the catalog (active) unless the row gives a status; a draft stays a draft.
/// - A variant cannot move to another product (a `handle` other than its own), and its product's
///   number of option names cannot change; a variant has one value per option name.
/// - A store sells in one currency: a row naming another is an error.
///
/// File-level rules (well-formed values, ranges, a SKU given twice, fill-down of a handle's
/// product fields and its variants' distinct option values) are the reader's and hold already
/// for every row this sees.
enum CatalogRowMerge {
    /// The currency of a store that has no products yet, when the file's first row names none.
    static let defaultCurrency = ShopCurrency.defaultCode

    /// What applying a row does.
    enum Outcome: Equatable {
        /// The row cannot be applied; nothing of it is written.
        case rejected([RowError])
        /// A new variant with its stock: of a new product (`joining` nil), or of the product whose
        /// first variant has seq `joining`, whose product fields change to the variant's when
        /// `productChanged`.
        case create(Product, status: ProductStatus, stock: Int, joining: Int64?, productChanged: Bool)
        /// The variant's fields change, or its product comes back from the archive; when
        /// `productChanged`, the product fields (and status) of every variant of the product
        /// change to these. `stock`, when set, is the new level.
        case update(Product, status: ProductStatus, stock: Int?, productChanged: Bool)
        /// The variant stays as it is; `stock`, when set, is its new level.
        case keep(stock: Int?)
    }

    /// One thing wrong with a row, for `FILE:LINE: field: message`.
    struct RowError: Equatable {
        let field: String
        let message: String
    }

    /// The currency of a store that holds `existing` (nil: no products yet), when the file's
    /// first row is `firstRow`: the store's own, else the row's, else `defaultCurrency`.
    static func storeCurrency(existing: String?, firstRow: CatalogRow?) -> String {
        existing ?? firstRow?.currency ?? defaultCurrency
    }

    /// Applies `row` to `existing` (nil for a SKU the store does not have) in a store selling in
    /// `currency`. `sibling` is a variant of the product `row.handle` names, when the store has
    /// it and `existing` is nil. `valuesTakenBy` is the SKU of another variant of the product the
    /// store has with the row's `optionValues` (`needsValuesCheck` says when to look it up).
    static func merge(_ row: CatalogRow, into existing: StoredProduct?, sibling: StoredProduct? = nil, valuesTakenBy: String? = nil,
                      currency: String) -> Outcome {
        var errors: [RowError] = []
        if let given = row.currency, given != currency {
            errors.append(RowError(field: "currency", message: "\(given) is not the store's currency, \(currency): a store sells in one currency"))
        }
        let priceCents = minorUnits(row, currency: currency, errors: &errors)
        let base = existing ?? sibling
        guard let base else {
            for (field, missing) in [("name", row.name == nil), ("category", row.category == nil),
                                     ("priceCents", row.priceCents == nil && row.price == nil)] where missing {
                errors.append(RowError(field: field, message: "\(row.sku) is not in the store, and a new product needs a \(field)"))
            }
            let options = self.options(names: row.optionNames ?? [], values: row.optionValues, errors: &errors)
            guard errors.isEmpty, let name = row.name, let category = row.category, let priceCents else {
                return .rejected(errors)
            }
            let product = Product(sku: row.sku, name: name, description: row.description ?? "", category: category,
                                  priceCents: priceCents, currency: currency, handle: row.handle ?? row.sku, brand: row.brand ?? "",
                                  options: options)
            return .create(product, status: row.status ?? .active, stock: row.stock ?? 0, joining: nil, productChanged: false)
        }
        let old = base.product
        if existing != nil, let handle = row.handle, handle != old.handle {
            errors.append(RowError(field: "handle", message: "\(row.sku) is a variant of \(CatalogFieldRules.quoted(old.handle)); a variant cannot move to another product"))
        }
        if existing == nil && row.priceCents == nil && row.price == nil {
            errors.append(RowError(field: "priceCents", message: "\(row.sku) is not in the store, and a new variant needs a priceCents"))
        }
        let oldNames = old.options.map(\.name)
        let names = row.optionNames ?? oldNames
        if names.count != oldNames.count {
            errors.append(RowError(field: "option\(max(names.count, oldNames.count))Name",
                                   message: "\(CatalogFieldRules.quoted(old.handle)) has \(oldNames.count) option name\(oldNames.count == 1 ? "" : "s"); a product's number of options cannot change"))
        }
        if let other = valuesTakenBy, let given = row.optionValues, !given.isEmpty {
            errors.append(RowError(field: "option1Value", message: "\(other) is the variant \(CatalogFieldRules.quoted(given.joined(separator: " / "))) of \(CatalogFieldRules.quoted(old.handle)) already; two variants of a product cannot have the same option values"))
        }
        let values = existing == nil ? row.optionValues : row.optionValues ?? old.options.map(\.value)
        let options = self.options(names: names, values: values, errors: &errors)
        guard errors.isEmpty else { return .rejected(errors) }
        let product = Product(
            sku: row.sku, name: row.name ?? old.name, description: row.description ?? old.description,
            category: row.category ?? old.category, priceCents: priceCents ?? old.priceCents, currency: old.currency,
            handle: old.handle, brand: row.brand ?? old.brand, options: options)
        let status = row.status ?? (base.status == .archived ? .active : base.status)
        let productChanged = status != base.status || product.name != old.name || product.description != old.description
            || product.category != old.category || product.brand != old.brand || names != oldNames
        guard let existing else {
            return .create(product, status: status, stock: row.stock ?? 0, joining: base.productSeq, productChanged: productChanged)
        }
        let stock = row.stock.flatMap { $0 == existing.stock ? nil : $0 }
        guard productChanged || product != old else { return .keep(stock: stock) }
        return .update(product, status: status, stock: stock, productChanged: productChanged)
    }

    /// Whether applying `row` to a variant of the stored product `base` (the row's own, or one of
    /// the product it joins) needs to know which other variant of the product, if any, has the
    /// option values the row gives: when it gives some and they are not the variant's own.
    static func needsValuesCheck(_ row: CatalogRow, existing: StoredProduct?) -> Bool {
        guard let values = row.optionValues, !values.isEmpty else { return false }
        return existing.map { $0.product.options.map(\.value) != values } ?? true
    }

    /// The options of `names` with `values` (nil: none given), checking there is one value per name.
    private static func options(names: [String], values: [String]?, errors: inout [RowError]) -> [ProductOption] {
        let values = values ?? []
        guard values.count == names.count else {
            let field = "option\(min(names.count, values.count) + 1)\(values.count > names.count ? "Name" : "Value")"
            let message = values.count > names.count
                ? "\(values.count) option value\(values.count == 1 ? "" : "s") but \(names.count) option name\(names.count == 1 ? "" : "s"); each value needs its name"
                : "the product has \(names.count) option name\(names.count == 1 ? "" : "s") (\(names.joined(separator: ", "))); each needs a value"
            errors.append(RowError(field: field, message: message))
            return []
        }
        return zip(names, values).map { ProductOption(name: $0, value: $1) }
    }

    /// The row's price in minor units: its `priceCents`, or its `price` converted with
    /// `currency`'s exponent (an error when it has more decimals than the currency, or the
    /// currency has no minor unit in ISO 4217); nil when it gives neither or on error.
    private static func minorUnits(_ row: CatalogRow, currency: String, errors: inout [RowError]) -> Int? {
        guard let price = row.price else { return row.priceCents }
        guard let exponent = CurrencyExponent(code: currency) else {
            errors.append(RowError(field: "price", message: "\(currency) has no minor unit in ISO 4217's list, so a price in units cannot be converted; give priceCents"))
            return nil
        }
        switch price.minorUnits(exponent: exponent, currency: currency) {
        case .success(let value):
            return value
        case .failure(let error):
            errors.append(RowError(field: "price", message: error.message))
            return nil
        }
    }
}

// MARK: - Counting

extension CatalogImportSummary {
    /// Counts `row`, applied with `outcome` in a store selling in `currency` (a rejected row
    /// counts nowhere), and notes the row's warnings.
    mutating func count(_ row: CatalogRow, _ outcome: CatalogRowMerge.Outcome, currency: String) {
        if case .rejected = outcome { return }
        if let priceCents = row.priceCents {
            priceCentsRows += 1
            if oneUnit?.currency != currency {
                oneUnit = (currency, CurrencyExponent(code: currency)?.minorUnitsPerMajorUnit ?? 1)
            }
            if priceCents < oneUnit!.minorUnits {
                var below = priceCentsBelowOneUnit.map { [$0] } ?? []
                below.note(.priceCentsBelowOneUnit, column: "priceCents", line: row.line,
                           message: "every priceCents is below 1 \(currency) (priceCents is in minor units: 4500 is 45.00); for prices in units, name the column price")
                priceCentsBelowOneUnit = below.first
            }
        }
        switch outcome {
        case .rejected:
            return
        case .create:
            created += 1
            if row.stock != nil {
                stockSet += 1
            } else {
                warnings.note(.newProductsWithoutStock, line: row.line,
                              message: "new products without a stock value start at 0, so orders for them fail with OutOfStock until their stock is set")
            }
        case let .update(_, _, stock, _):
            updated += 1
            if stock != nil { stockSet += 1 }
        case let .keep(stock):
            unchanged += 1
            if stock != nil { stockSet += 1 }
        }
        rows += 1
    }
}

extension CatalogImportSummary {
    /// Once every row is counted: adds the warnings decided by the whole file (every
    /// `priceCents` below one major unit). With `strict`, reports each warning's lines to
    /// `source` as errors (`FILE:LINE: field: kind: message (--strict)`), so the import writes
    /// nothing.
    mutating func finishWarnings<Source: CatalogRowSource>(strict: Bool, reportingTo source: inout Source) {
        for error in finishWarnings(strict: strict) { source.reportError(line: error.line, field: error.field, message: error.message) }
    }

    private mutating func finishWarnings(strict: Bool) -> [CatalogFileError] {
        if let below = priceCentsBelowOneUnit, below.count == priceCentsRows {
            warnings.append(below)
        }
        priceCentsBelowOneUnit = nil
        guard strict else { return [] }
        return warnings.flatMap { warning in
            warning.lines.map { CatalogFileError(line: $0, field: warning.field, message: "\(warning.kind.rawValue): \(warning.message) (--strict)") }
        }
    }
}
