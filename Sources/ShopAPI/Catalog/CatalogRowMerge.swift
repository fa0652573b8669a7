/// The import's rules for one row against the product the store has under its SKU, if any
/// (protocol.md, section 9). The one place they are written: both stores apply rows through it
/// (SQLite row by row, PostgreSQL a batch at a time), and so will the admin methods that add or
/// change one product. Pure; thread-safe.
///
/// - A new SKU needs `name`, `category` and `priceCents`; `description` defaults to "",
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
        guard let existing else {
            for (field, missing) in [("name", row.name == nil), ("category", row.category == nil), ("priceCents", row.priceCents == nil)] where missing {
                errors.append(RowError(field: field, message: "\(row.sku) is not in the store, and a new product needs a \(field)"))
            }
            guard errors.isEmpty, let name = row.name, let category = row.category, let priceCents = row.priceCents else {
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
            category: row.category ?? old.category, priceCents: row.priceCents ?? old.priceCents, currency: old.currency)
        let stock = row.stock.flatMap { $0 == existing.stock ? nil : $0 }
        return product == old && !existing.archived ? .keep(stock: stock) : .update(product, stock: stock)
    }
}

// MARK: - Counting

extension CatalogImportSummary {
    /// Counts `row`, applied with `outcome` (a rejected row counts nowhere).
    mutating func count(_ row: CatalogRow, _ outcome: CatalogRowMerge.Outcome) {
        switch outcome {
        case .rejected:
            return
        case .create:
            created += 1
            if row.stock != nil { stockSet += 1 }
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
