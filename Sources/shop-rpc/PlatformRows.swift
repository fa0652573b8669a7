import ShopAPI

/// A platform's product CSV as an import's source (`import --from`): the preset's reader, whose
/// errors (the platform file's lines and columns) are reported like a catalog file's, and whose
/// summary line adds the `platform` member (ignored columns, skipped rows).
struct PlatformRows<Source: ByteSource>: ImportFileSource {
    var reader: PlatformCatalogReader<Source>

    mutating func nextRow() throws -> CatalogRow? { try reader.next() }
    var hasErrors: Bool { reader.hasErrors }

    mutating func reportError(line: Int, field: String, message: String) {
        reader.report(CatalogFileError(line: line, field: field, message: message))
    }

    var bytesRead: Int { reader.bytesRead }
    var warnings: [CatalogImportWarning] { reader.warnings }

    func errorReport(file: String) -> [String] { reader.errors.report(file: file) }

    func summaryLine(_ summary: CatalogImportSummary) -> String { reader.report.summaryJSON(summary) }
}
