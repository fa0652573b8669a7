import ShopAPI

/// One CSV record as the tests compare them: its first line, its fields (invalid UTF-8 shown as
/// U+FFFD) and its syntax error.
struct CSVTestRecord: Equatable, CustomStringConvertible {
    var line: Int
    var fields: [String]
    var error: CSVSyntaxError?

    var description: String { "\(line): \(fields)\(error.map { " !\($0)" } ?? "")" }
}

/// Every record `CSVReader` reads from `bytes`, fed in reads of `chunkSizes` (all at once when empty).
func readCSVRecords(_ bytes: [UInt8], chunkSizes: [Int] = [], bufferSize: Int = 64 << 10,
                    maxRecordBytes: Int = CatalogLimits.maxRecordBytes) -> [CSVTestRecord] {
    var reader = CSVReader(source: MemorySource(bytes, chunkSizes: chunkSizes), bufferSize: bufferSize, maxRecordBytes: maxRecordBytes)
    var records: [CSVTestRecord] = []
    while try! reader.next() {
        records.append(CSVTestRecord(line: reader.line, fields: reader.fields.strings, error: reader.syntaxError))
    }
    return records
}

func readCSVRecords(_ text: String, chunkSizes: [Int] = []) -> [CSVTestRecord] {
    readCSVRecords(Array(text.utf8), chunkSizes: chunkSizes)
}

/// Every good row and every error `CatalogFileReader` finds in `bytes`.
func readCatalog(_ bytes: [UInt8], format: CatalogFileFormat, chunkSizes: [Int] = []) -> (rows: [CatalogRow], errors: CatalogFileErrors) {
    var reader = CatalogFileReader(format: format, source: MemorySource(bytes, chunkSizes: chunkSizes))
    var rows: [CatalogRow] = []
    while let row = try! reader.next() { rows.append(row) }
    return (rows, reader.errors)
}

func readCatalog(_ text: String, format: CatalogFileFormat) -> (rows: [CatalogRow], errors: CatalogFileErrors) {
    readCatalog(Array(text.utf8), format: format)
}

/// The errors as `LINE: field: message` strings, for comparing.
func errorLines(_ errors: CatalogFileErrors) -> [String] {
    errors.shown.map(\.description)
}
