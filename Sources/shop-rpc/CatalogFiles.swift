import ShopAPI

/// Where the commands meet the catalog file formats (protocol.md, "Catalog files"): the readers
/// that check a file and hand out its rows (`CatalogFileReader`), and the writer of exports
/// (`RecordWriter`). The one place `import` and `export` name them.
enum CatalogFiles {
    /// The rows of the file open on `fileDescriptor`, read as `format` in `encoding`.
    static func reader(format: CatalogFileFormat, fileDescriptor: Int32, encoding: TextEncoding = .utf8,
                       options: CatalogReadOptions = CatalogReadOptions()) -> some ImportFileSource {
        let source = TranscodingSource(FileDescriptorSource(fileDescriptor: fileDescriptor), encoding: encoding)
        return FileRows(reader: CatalogFileReader(format: format, source: source, options: options))
    }

    /// The rows of a platform's product CSV open on `fileDescriptor`, read in `encoding`, as its
    /// preset translates them.
    static func platformReader(_ preset: CatalogPreset, options: PlatformImportOptions, fileDescriptor: Int32,
                               encoding: TextEncoding = .utf8) -> some ImportFileSource {
        let source = TranscodingSource(FileDescriptorSource(fileDescriptor: fileDescriptor), encoding: encoding)
        return PlatformRows(reader: PlatformCatalogReader(preset: preset, options: options, source: source))
    }

    /// Writes the records `body` gives to `fileDescriptor` as `format`, with these columns, then
    /// what is still buffered.
    static func write(format: CatalogFileFormat, columns: [String], to fileDescriptor: Int32,
                      _ body: (inout RecordWriter<FileDescriptorSink>) throws -> Void) throws {
        var writer = RecordWriter(format: format, columns: columns, sink: FileDescriptorSink(fileDescriptor: fileDescriptor))
        try body(&writer)
        try writer.finish()
    }

    /// A catalog file's reader as an import's source: the file's errors and those the import
    /// reports are kept apart (each list in file order, the store's found later than the reader's
    /// when the file is read ahead) and reported together, the first 50 of both in file order.
    private struct FileRows: ImportFileSource {
        var reader: CatalogFileReader<TranscodingSource<FileDescriptorSource>>
        var storeErrors = CatalogFileErrors()

        mutating func nextRow() throws -> CatalogRow? { try reader.next() }
        var hasErrors: Bool { !reader.errors.isEmpty || !storeErrors.isEmpty }

        mutating func reportError(line: Int, field: String, message: String) {
            storeErrors.append(CatalogFileError(line: line, field: field, message: message))
        }

        var bytesRead: Int { reader.bytesRead }
        var warnings: [CatalogImportWarning] { reader.warnings }

        func errorReport(file: String) -> [String] {
            let fileErrors = reader.errors
            // Each list holds its first errors in file order, so the first of both merged are the
            // file's first; the sort is stable, so a line's errors keep their order.
            let first = (fileErrors.shown + storeErrors.shown).enumerated()
                .sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
                .prefix(fileErrors.limit).map(\.element)
            var merged = CatalogFileErrors(limit: fileErrors.limit)
            first.forEach { merged.append($0) }
            var lines = merged.report(file: file)
            let rest = fileErrors.count + storeErrors.count - first.count
            if rest > 0 { lines.append("\(file): … and \(rest) more error\(rest == 1 ? "" : "s")") }
            return lines
        }
    }
}

/// An import's source of rows, the lines that report its errors (`FILE:LINE: field: message`, at
/// most 50, then a count of the rest), and the summary line it prints.
protocol ImportFileSource: CatalogRowSource {
    func errorReport(file: String) -> [String]
    func summaryLine(_ summary: CatalogImportSummary) -> String
}

extension ImportFileSource {
    func summaryLine(_ summary: CatalogImportSummary) -> String { summary.json }
}
