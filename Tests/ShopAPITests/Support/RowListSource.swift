@testable import ShopAPI

/// A `CatalogRowSource` over rows in memory, standing in for a file reader: it hands out `rows`
/// in order, keeps the errors reported to it (and those it is told the "file" has, at the line
/// they are to appear), and counts bytes as one per row.
struct RowListSource: CatalogRowSource {
    struct Error: Equatable, CustomStringConvertible {
        let line: Int
        let field: String
        let message: String
        var description: String { "\(line): \(field): \(message)" }
    }

    private let rows: [CatalogRow]
    private var next = 0
    /// File-level errors, reported when the reader reaches their line.
    private var fileErrors: [Error]
    private(set) var errors: [Error] = []

    init(_ rows: [CatalogRow], fileErrors: [Error] = []) {
        self.rows = rows
        self.fileErrors = fileErrors
    }

    mutating func nextRow() throws -> CatalogRow? {
        guard next < rows.count else {
            errors += fileErrors
            fileErrors = []
            return nil
        }
        let row = rows[next]
        next += 1
        while let first = fileErrors.first, first.line <= row.line {
            errors.append(first)
            fileErrors.removeFirst()
        }
        return row
    }

    var hasErrors: Bool { !errors.isEmpty }

    mutating func reportError(line: Int, field: String, message: String) {
        errors.append(Error(line: line, field: field, message: message))
    }

    var bytesRead: Int { next }
}

// MARK: - Importing in tests

extension ShopService {
    /// Imports `rows` (lines 2, 3, … unless they say otherwise); returns the outcome and the errors.
    func importRows(
        _ rows: [CatalogRow], replace: Bool = false, dryRun: Bool = false, fileErrors: [RowListSource.Error] = []
    ) throws -> (outcome: CatalogImportOutcome, errors: [RowListSource.Error]) {
        var source = RowListSource(rows, fileErrors: fileErrors)
        let outcome = try importCatalog(from: &source, options: CatalogImportOptions(replace: replace, dryRun: dryRun))
        return (outcome, source.errors)
    }

    /// Every product the catalog exports, with its stock.
    func exportedProducts() throws -> [(Product, Int)] {
        var products: [(Product, Int)] = []
        try exportProducts { products.append(($0, $2)) }
        return products
    }
}

/// A complete row for a new product, on `line`.
func newRow(_ sku: String, line: Int, name: String? = nil, category: String = "tools", priceCents: Int = 1000,
            currency: String? = nil, stock: Int? = nil, description: String? = nil) -> CatalogRow {
    CatalogRow(line: line, sku: sku, name: name ?? "Product \(sku)", description: description, category: category,
               priceCents: priceCents, currency: currency, stock: stock)
}
