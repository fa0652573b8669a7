/// The import's rules for one row against the product the store has under its SKU, if any
/// (protocol.md, section 9). The one place they are written: both stores apply rows through it
/// (SQLite row by row, PostgreSQL a batch at a time), and so will the admin methods that add or
/// change one product. Pure; thread-safe.
///
/// - A new SKU needs `name`, `category` and a price (`priceCents`, or `price` in major units,
///   converted with the store currency's ISO 4217 exponent); `description` defaults to "",
///   `currency` to the store's, `stock` to 0.
/// - For an existing SKU a field the row gives sets it, a field it leaves out keeps it. An
///   archived product the row lists comes back into the catalog.
/// - A store sells in one currency: a row naming another is an error.
///
/// File-level rules (well-formed values, ranges, a SKU given twice) are the reader's and hold
/// already for every row this sees.
enum CatalogRowMerge {
    /// The currency of a store that has no products yet, when the file's first row names none.
    static let defaultCurrency = ShopCurrency.defaultCode

    /// What applying a row does.
    enum Outcome: Equatable {
        /// The row cannot be applied; nothing of it is written.
        case rejected([RowError])
        /// A new product, with its stock.
        case create(Product, stock: Int)
        /// The product's fields change, or it comes back from the archive; `stock`, when set, is
        /// its new level.
        case update(Product, stock: Int?)
        /// The product stays as it is; `stock`, when set, is its new level.
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
    /// `currency`.
    static func merge(_ row: CatalogRow, into existing: StoredProduct?, currency: String) -> Outcome {
        var errors: [RowError] = []
        if let given = row.currency, given != currency {
            errors.append(RowError(field: "currency", message: "\(given) is not the store's currency, \(currency): a store sells in one currency"))
        }
        let priceCents = minorUnits(row, currency: currency, errors: &errors)
        guard let existing else {
            for (field, missing) in [("name", row.name == nil), ("category", row.category == nil),
                                     ("priceCents", row.priceCents == nil && row.price == nil)] where missing {
                errors.append(RowError(field: field, message: "\(row.sku) is not in the store, and a new product needs a \(field)"))
            }
            guard errors.isEmpty, let name = row.name, let category = row.category, let priceCents else {
                return .rejected(errors)
            }
            let product = Product(sku: row.sku, name: name, description: row.description ?? "", category: category,
                                  priceCents: priceCents, currency: currency)
            return .create(product, stock: row.stock ?? 0)
        }
        guard errors.isEmpty else { return .rejected(errors) }
        let old = existing.product
        let product = Product(
            sku: old.sku, name: row.name ?? old.name, description: row.description ?? old.description,
            category: row.category ?? old.category, priceCents: priceCents ?? old.priceCents, currency: old.currency)
        let stock = row.stock.flatMap { $0 == existing.stock ? nil : $0 }
        return product == old && !existing.archived ? .keep(stock: stock) : .update(product, stock: stock)
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
        case let .update(_, stock):
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
