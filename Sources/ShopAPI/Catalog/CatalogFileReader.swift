/// Reads a catalog file, CSV or NDJSON, as checked `CatalogRow`s, in constant memory (the read
/// buffer, one record, the SKUs seen so far to find repeats, and the product fields of each
/// handle to fill them down to its later rows: `CatalogVariantGroups`). It checks every file-level rule
/// of protocol.md's "Catalog files" and returns only good rows; what is wrong goes to `errors`
/// (the first 50 kept, the rest counted), and it reads on to the end so that every error is found.
///
/// Meant to feed an all-or-nothing import while it reads: write each row into the transaction
/// while `errors` is empty; once it is not, stop writing, keep calling `next()` to the end to
/// collect the errors, and roll back. One thread; a value type.
///
/// ```swift
/// var reader = CatalogFileReader(format: .csv, source: FileDescriptorSource(fileDescriptor: fd))
/// while let row = try reader.next() {
///     if reader.errors.isEmpty { try transaction.upsert(row) }
/// }
/// if !reader.errors.isEmpty { rollBack(); reader.errors.report(file: path).forEach(printToStderr) }
/// ```
public struct CatalogFileReader<Source: ByteSource> {
    private var csv: CSVCatalogReader<Source>?
    private var ndjson: NDJSONCatalogReader<Source>?
    private var variants = CatalogVariantGroups()
    public let format: CatalogFileFormat

    /// - Parameter options: column mapping, unknown columns, the CSV separator, `strict`.
    public init(format: CatalogFileFormat, source: Source, options: CatalogReadOptions = CatalogReadOptions()) {
        self.format = format
        switch format {
        case .csv: csv = CSVCatalogReader(source: source, options: options)
        case .ndjson: ndjson = NDJSONCatalogReader(source: source, options: options)
        }
    }

    /// The next good row, or nil at the end of the file. Rows with an error are left out (their
    /// errors are in `errors`).
    ///
    /// - Throws: `ByteSourceError` if reading the source fails (not for anything in the bytes).
    public mutating func next() throws(ByteSourceError) -> CatalogRow? {
        while var row = try csv != nil ? csv!.next() : ndjson!.next() {
            let problems = variants.apply(to: &row)
            if problems.isEmpty { return row }
            for problem in problems { report(CatalogFileError(line: row.line, field: problem.field, message: problem.message)) }
        }
        return nil
    }

    /// What is legal but probably a mistake, found so far (a padded header cell, an ignored
    /// column); empty under `strict`, where each is an error.
    public var warnings: [CatalogImportWarning] {
        csv?.warnings ?? ndjson!.warnings
    }

    /// Everything found wrong so far.
    public var errors: CatalogFileErrors {
        csv?.errors ?? ndjson!.errors
    }

    /// Adds an error found by the caller (a new SKU without a name, …), so that all of a file's
    /// errors are kept, counted and reported together.
    public mutating func report(_ error: CatalogFileError) {
        if csv != nil { csv!.errors.append(error) } else { ndjson!.errors.append(error) }
    }

    /// Records (CSV, after the header, but for all-empty ones) or non-blank lines (NDJSON) read so
    /// far, good or not.
    public var rowsRead: Int { csv?.rowsRead ?? ndjson!.rowsRead }

    /// Bytes taken from the source so far, for progress (a percentage of the file's size).
    public var bytesRead: Int { csv?.bytesRead ?? ndjson!.bytesRead }

    /// CSV: the known columns of the header in file order (once the first `next()` has read it);
    /// every row has exactly these fields. NDJSON: nil, since each line names its own members.
    public var columns: [CatalogColumn]? { csv?.presentColumns }
}
