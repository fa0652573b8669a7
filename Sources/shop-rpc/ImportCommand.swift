#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import RPCServer  // HelpColumns
import ShopAPI

/// `shop-rpc import [--db PATH|URI] [--format csv|ndjson | --from PLATFORM [--currency CODE]] [--replace]
/// [--dry-run] [--strict] [--map …] [--ignore-unknown] [--delimiter …] [--encoding …] FILE|-`:
/// checks a catalog file and imports it into the store in one transaction, all or nothing
/// (protocol.md, section 9). Exit statuses: 0 imported (or checked, with `--dry-run`), the
/// summary on stdout (its warnings also on stderr); 1 the file or a row had errors (or, with
/// `--strict`, warnings) (on stderr, `FILE:LINE: field: message`,
/// nothing written), or the file or store could not be opened or written; 2 a usage error.
enum ImportCommand {
    static let synopsis = "shop-rpc import [--db PATH|URI] [--format csv|ndjson | --from shopify|woocommerce|medusa [--currency CODE]] [--replace] [--dry-run] [--strict] [--map 'NAME=column,…'] [--ignore-unknown] [--delimiter ,|;|tab] [--encoding NAME] FILE|-"

    static var usage: String {
        CommandUsage.text(
            synopsis: synopsis,
            operands: [HelpColumns.Row(synopsis: "FILE|-", help: "the catalog file to import, or - for stdin (then --format or --from is needed)")],
            flags: ShopFlags.importFlags,
            notes: [
                "Columns (CSV header) or members (NDJSON): sku (required), name, description, category, priceCents,",
                "currency, stock, price; for products with variants handle, brand, status (active, draft, archived),",
                "option1Name, option1Value … option3Value: rows with the same handle are one product's variants, its",
                "fields given on its first row. price is in the currency's units (19.99 USD, 500 JPY, 1.234 KWD),",
                "priceCents in its minor units (1999); a row gives one of them. A new SKU needs name, category and a",
                "price; for an existing one, a field the file gives sets it and one it leaves out keeps it. A store created",
                "by the import starts empty and sells in the currency of the file's first row (USD if it gives none); a row",
                "in another currency is an error. CSV: separators , ; or TAB, line ends LF, CRLF or CR; empty rows skipped.",
                "Prints {\"rows\",\"created\",\"updated\",\"unchanged\",\"archived\",\"stockSet\"} on success (exit 0), and",
                "\"warnings\" when there are any (each also on stderr as FILE:LINE: warning: kind: message); the file's",
                "errors on stderr as FILE:LINE: field: message, at most 50 and a count of the rest, writing nothing (exit 1).",
                "--from reads a Shopify, WooCommerce or Medusa product CSV as exported; the summary then ends with",
                "\"platform\": the columns it kept nowhere (ignoredColumns) and the rows it skipped (skippedRows).",
            ])
    }

    /// Imports the file and returns 0 (the summary on stdout), or 1 when the file has errors
    /// (reported on stderr; nothing was written).
    /// - Throws: `CommandFailure`: a usage error, or (status 1) a file or store that cannot be
    ///   opened, read or written.
    static func run(_ arguments: [String]) throws(CommandFailure) -> Int32 {
        let parsed = try CommandUsage.parse(arguments, flags: ShopFlags.importFlags, usage: usage)
        if parsed.showHelp {
            print(usage)
            return 0
        }
        guard parsed.operands.count == 1, let path = parsed.operands.first else {
            throw .usage("import takes one FILE (or - for stdin), got \(parsed.operands.count)\n\(usage)")
        }
        let options = CatalogImportOptions(replace: parsed[ShopFlags.replace], dryRun: parsed[ShopFlags.dryRun], strict: parsed[ShopFlags.strict])
        if let preset = parsed[ShopFlags.from] {
            if parsed[ShopFlags.format] != nil {
                throw .usage("--from reads the platform's CSV export; --format does not go with it\n\(usage)")
            }
            if parsed[ShopFlags.map] != .none || parsed[ShopFlags.ignoreUnknown] || parsed[ShopFlags.delimiter] != nil {
                throw .usage("--from knows the platform's columns and separator; --map, --ignore-unknown and --delimiter do not go with it\n\(usage)")
            }
            let file = try openFile(path)
            var source = CatalogFiles.platformReader(
                preset, options: PlatformImportOptions(currency: parsed[ShopFlags.currency]), fileDescriptor: file.descriptor,
                encoding: parsed[ShopFlags.encoding])
            return try importFile(&source, path: path, size: file.size, database: parsed[ShopFlags.database], options: options)
        }
        if parsed[ShopFlags.currency] != nil {
            throw .usage("--currency goes with --from (a catalog file names its currency in its currency column)\n\(usage)")
        }
        let format: CatalogFileFormat
        do {
            format = try CatalogFileFormat.choose(path: path, explicit: parsed[ShopFlags.format])
        } catch {
            throw .usage("\(error)\n\(usage)")
        }
        if parsed[ShopFlags.delimiter] != nil && format != .csv {
            throw .usage("--delimiter is for CSV files only\n\(usage)")
        }
        let readOptions = CatalogReadOptions(mapping: parsed[ShopFlags.map], ignoreUnknown: parsed[ShopFlags.ignoreUnknown],
                                             delimiter: parsed[ShopFlags.delimiter], strict: options.strict)
        let file = try openFile(path)
        var source = CatalogFiles.reader(format: format, fileDescriptor: file.descriptor, encoding: parsed[ShopFlags.encoding], options: readOptions)
        return try importFile(&source, path: path, size: file.size, database: parsed[ShopFlags.database], options: options)
    }

    /// Imports `source`'s rows into the store `database` names and returns 0 (the summary on
    /// stdout, its warnings also on stderr), or 1 when the file has errors (reported on stderr;
    /// nothing was written).
    private static func importFile(
        _ source: inout some ImportFileSource, path: String, size: Int?, database: String?, options: CatalogImportOptions
    ) throws(CommandFailure) -> Int32 {
        let location = StoreOpening.location(database)
        let outcome: CatalogImportOutcome
        do {
            if !options.dryRun, StoreOpening.isSQLiteFile(location), !StoreOpening.fileExists(location) {
                // A store the import creates appears only if the import commits (NewStoreImport).
                outcome = try NewStoreImport.run(at: location) { service in
                    try importShowingProgress(service, &source, options: options, fileSize: size)
                }
            } else {
                let service = try openStore(location, dryRun: options.dryRun)
                outcome = try importShowingProgress(service, &source, options: options, fileSize: size)
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw StoreOpening.failure(location, "import failed, nothing was written: \(StoreOpening.reason(error))", status: 1)
        }
        if source.hasErrors {
            writeRawToStandardError(source.errorReport(file: path).map { $0 + "\n" }.joined())
            return 1
        }
        writeRawToStandardError(outcome.summary.warnings.map { $0.formatted(file: path) + "\n" }.joined())
        print(source.summaryLine(outcome.summary))
        return 0
    }

    /// The file to read, and its size when it is a regular file; `-` is stdin.
    /// - Throws: `CommandFailure` (status 1) if it cannot be opened or is a directory (which
    ///   `open` allows and only reading refuses).
    private static func openFile(_ path: String) throws(CommandFailure) -> (descriptor: Int32, size: Int?) {
        let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .failed("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        var status = stat()
        let known = fstat(descriptor, &status) == 0
        if known, (status.st_mode & S_IFMT) == S_IFDIR {
            throw .failed("cannot import \(path): it is a directory")
        }
        let size = known && (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : nil
        return (descriptor, size)
    }

    /// The store to import into, which exists (a new SQLite one is `NewStoreImport`'s; a
    /// PostgreSQL database gets the schema, empty, if it has none). A dry run never creates a
    /// SQLite file: on a path where none exists it checks against an empty store in memory, which
    /// is what a new store would be.
    private static func openStore(_ location: String, dryRun: Bool) throws(CommandFailure) -> ShopService {
        if dryRun, StoreOpening.isSQLiteFile(location), !StoreOpening.fileExists(location) {
            return try StoreOpening.open(":memory:", creation: .empty)
        }
        return try StoreOpening.open(location, creation: .importedFile)
    }

    /// Runs the import; on a terminal, stderr shows one progress line while it runs
    /// (`CatalogImportProgressLine`), cleared at the end. Nothing is drawn when stderr is not a
    /// terminal.
    private static func importShowingProgress(
        _ service: ShopService, _ source: inout some ImportFileSource, options: CatalogImportOptions, fileSize: Int?
    ) throws -> CatalogImportOutcome {
        guard isatty(STDERR_FILENO) == 1 else {
            return try service.importCatalog(from: &source, options: options)
        }
        let now = { DispatchTime.now().uptimeNanoseconds }
        var line = CatalogImportProgressLine(startedAt: now(), totalBytes: fileSize, dryRun: options.dryRun)
        var drawn = false
        defer {
            if drawn { writeRawToStandardError("\r\u{1B}[K") }
        }
        return try service.importCatalog(from: &source, options: options) { progress in
            guard let text = line.update(progress, now: now()) else { return }
            writeRawToStandardError("\r" + text + "\u{1B}[K")
            drawn = true
        }
    }
}
