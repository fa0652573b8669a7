import ShopAPI

/// Where the commands meet the catalog file formats: the readers that check a file and hand out
/// its rows, and the writers of exports (CSV and NDJSON, protocol.md "Catalog files"). The one
/// place `import` and `export` name them.
///
/// Not yet in this build: the readers and writers come with the catalog-file work. Until then an
/// import reports, as the file's one error, that it cannot read it, and an export fails saying
/// so; everything around them (flags, store, summary, progress, exit statuses) is in place.
enum CatalogFiles {
    /// The rows of the file open on `fileDescriptor`, read as `format`.
    static func reader(format: CatalogFormatChoice, fileDescriptor: Int32) -> any ImportFileSource {
        UnreadableFile()
    }

    /// Writes the records `body` gives to `fileDescriptor` as `format`, with these columns.
    static func write(format: CatalogFormatChoice, columns: [String], to fileDescriptor: Int32,
                      _ body: (inout any ExportRecordWriter) throws -> Void) throws {
        throw CatalogFilesMissing()
    }

    /// Why an export cannot run in this build.
    struct CatalogFilesMissing: Error, CustomStringConvertible {
        var description: String { "this build cannot write catalog files yet" }
    }

    /// The reader of a build without catalog file readers.
    private struct UnreadableFile: ImportFileSource {
        private var errors: [String] = []
        private var read = false

        mutating func nextRow() throws -> CatalogRow? {
            if !read { errors.append("1: file: this build cannot read catalog files yet") }
            read = true
            return nil
        }

        var hasErrors: Bool { !errors.isEmpty }
        mutating func reportError(line: Int, field: String, message: String) { errors.append("\(line): \(field): \(message)") }
        var bytesRead: Int { 0 }
        func errorReport(file: String) -> [String] { errors.map { "\(file):\($0)" } }
    }
}

/// The format `--format` names (the catalog files' own type once they are in this build).
enum CatalogFormatChoice: String, Sendable {
    case csv, ndjson

    /// The format a file name's extension names: `.csv`; `.ndjson` or `.jsonl`; nil otherwise.
    static func inferred(fromPath path: String) -> CatalogFormatChoice? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "csv": return .csv
        case "ndjson", "jsonl": return .ndjson
        default: return nil
        }
    }
}

/// An import's source of rows, and the lines that report its errors (`FILE:LINE: field:
/// message`, at most 50, then a count of the rest).
protocol ImportFileSource: CatalogRowSource {
    func errorReport(file: String) -> [String]
}

/// Writes an export's records, field by field, each ended by `endRecord()`.
protocol ExportRecordWriter {
    mutating func write(_ value: String) throws
    mutating func write(_ value: Int) throws
    mutating func endRecord() throws
}
