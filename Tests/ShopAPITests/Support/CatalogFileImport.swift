@testable import ShopAPI

/// A catalog file's bytes imported the way `shop-rpc import` does: read by `CatalogFileReader`
/// (in `encoding`, with `readOptions`), applied by `ShopService.importCatalog`; the file's errors
/// and the store's together, as `LINE: field: message`, in file order.
struct CatalogFileImport {
    let outcome: CatalogImportOutcome
    let errors: [String]
    var warnings: [CatalogImportWarning] { outcome.summary.warnings }
}

extension ShopService {
    func importFile(_ text: String, format: CatalogFileFormat = .csv, options: CatalogImportOptions = CatalogImportOptions(),
                    readOptions: CatalogReadOptions = CatalogReadOptions()) throws -> CatalogFileImport {
        try importFile(Array(text.utf8), format: format, options: options, readOptions: readOptions)
    }

    func importFile(_ bytes: [UInt8], format: CatalogFileFormat = .csv, encoding: TextEncoding = .utf8,
                    options: CatalogImportOptions = CatalogImportOptions(), readOptions: CatalogReadOptions = CatalogReadOptions(),
                    chunkSizes: [Int] = []) throws -> CatalogFileImport {
        var readOptions = readOptions
        readOptions.strict = options.strict
        let source = TranscodingSource(MemorySource(bytes, chunkSizes: chunkSizes), encoding: encoding)
        var rows = FileRows(reader: CatalogFileReader(format: format, source: source, options: readOptions))
        let outcome = try importCatalog(from: &rows, options: options)
        let errors = rows.reader.errors.shown.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
        return CatalogFileImport(outcome: outcome, errors: errors.map(\.element.description))
    }
}

private struct FileRows: CatalogRowSource {
    var reader: CatalogFileReader<TranscodingSource<MemorySource>>

    mutating func nextRow() throws -> CatalogRow? { try reader.next() }
    var hasErrors: Bool { !reader.errors.isEmpty }
    mutating func reportError(line: Int, field: String, message: String) {
        reader.report(CatalogFileError(line: line, field: field, message: message))
    }
    var bytesRead: Int { reader.bytesRead }
    var warnings: [CatalogImportWarning] { reader.warnings }
}
