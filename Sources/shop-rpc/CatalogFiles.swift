import ShopAPI

/// Where the commands meet the catalog file formats (protocol.md, "Catalog files"): the readers
/// that check a file and hand out its rows (`CatalogFileReader`), and the writer of exports
/// (`RecordWriter`). The one place `import` and `export` name them.
enum CatalogFiles {
    /// The rows of the file open on `fileDescriptor`, read as `format`.
    static func reader(format: CatalogFileFormat, fileDescriptor: Int32) -> some ImportFileSource {
        FileRows(reader: CatalogFileReader(format: format, source: FileDescriptorSource(fileDescriptor: fileDescriptor)))
    }

    /// Writes the records `body` gives to `fileDescriptor` as `format`, with these columns, then
    /// what is still buffered.
    static func write(format: CatalogFileFormat, columns: [String], to fileDescriptor: Int32,
                      _ body: (inout any ExportRecordWriter) throws -> Void) throws {
        var writer: any ExportRecordWriter = FileRecords(
            writer: RecordWriter(format: format, columns: columns, sink: FileDescriptorSink(fileDescriptor: fileDescriptor)))
        try body(&writer)
        try writer.finish()
    }

    /// A catalog file's reader as an import's source: its errors and those the import reports
    /// are kept and reported together.
    private struct FileRows: ImportFileSource {
        var reader: CatalogFileReader<FileDescriptorSource>

        mutating func nextRow() throws -> CatalogRow? { try reader.next() }
        var hasErrors: Bool { !reader.errors.isEmpty }

        mutating func reportError(line: Int, field: String, message: String) {
            reader.report(CatalogFileError(line: line, field: field, message: message))
        }

        var bytesRead: Int { reader.bytesRead }
        func errorReport(file: String) -> [String] { reader.errors.report(file: file) }
    }

    /// `RecordWriter` on a file descriptor, as an export writes.
    private struct FileRecords: ExportRecordWriter {
        var writer: RecordWriter<FileDescriptorSink>

        mutating func write(_ value: String) throws { try writer.write(value) }
        mutating func write(_ value: Int) throws { try writer.write(value) }
        mutating func endRecord() throws { try writer.endRecord() }
        mutating func finish() throws { try writer.finish() }
    }
}

/// An import's source of rows, and the lines that report its errors (`FILE:LINE: field:
/// message`, at most 50, then a count of the rest).
protocol ImportFileSource: CatalogRowSource {
    func errorReport(file: String) -> [String]
}

/// Writes an export's records, field by field, each ended by `endRecord()`; `finish()` writes
/// out what is buffered.
protocol ExportRecordWriter {
    mutating func write(_ value: String) throws
    mutating func write(_ value: Int) throws
    mutating func endRecord() throws
    mutating func finish() throws
}
