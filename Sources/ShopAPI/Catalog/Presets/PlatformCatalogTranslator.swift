/// Reads a platform's product CSV (`CatalogPreset`) and hands out its canonical records in file
/// order, in constant memory apart from what the preset keeps for later rows (Shopify: the
/// current product; WooCommerce: its variable products; all: the SKUs and handles it must not
/// make up twice). What cannot be read goes to `errors` (platform column names, lines of the
/// platform's file), and reading goes on. One thread; a value type.
///
/// ```swift
/// var translator = PlatformCatalogTranslator(preset: .shopify, options: PlatformImportOptions(), source: source)
/// while let record = try translator.next() { print(record[.sku]!, record[.price] ?? "-") }
/// print(translator.report.json, translator.errors.report(file: "products.csv"))
/// ```
struct PlatformCatalogTranslator<Source: ByteSource> {
    private var csv: CSVReader<Source>
    private var translator: (any PlatformRowTranslator)?
    private var headerRead = false
    let preset: CatalogPreset
    private let options: PlatformImportOptions
    /// Everything found wrong so far, the header's included.
    private(set) var errors = CatalogFileErrors()
    /// The ignored columns (once the header is read), skipped rows and stock read as 0 so far.
    private(set) var report: PlatformImportReport
    /// Records (after the header) read so far, whatever became of them.
    private(set) var rowsRead = 0

    init(preset: CatalogPreset, options: PlatformImportOptions, source: Source) {
        csv = CSVReader(source: source, delimiter: nil)
        self.preset = preset
        self.options = options
        report = PlatformImportReport(preset: preset)
    }

    /// Bytes taken from the platform's file so far, for progress.
    var bytesRead: Int { csv.bytesRead }

    /// The next record, or nil at the end of the file (or when the header is not the platform's:
    /// then `errors` says why).
    /// - Throws: `ByteSourceError` if reading the source fails (not for anything in the bytes).
    mutating func next() throws(ByteSourceError) -> CanonicalCatalogRecord? {
        if !headerRead {
            headerRead = true
            guard try csv.next() else {
                errors.append(line: 1, field: "header", message: "the file is empty; a \(preset.platformName) product CSV starts with its header")
                return nil
            }
            readHeader()
        }
        guard translator != nil else { return nil }
        while try csv.next() {
            rowsRead += 1
            let line = csv.line
            if let error = csv.syntaxError {
                errors.append(line: line, field: "row", message: error.description)
                continue
            }
            let fields = csv.fields
            var texts: [String] = []
            texts.reserveCapacity(fields.count)
            for position in 0..<fields.count {
                guard let text = fields.string(at: position) else { break }
                texts.append(text)
            }
            guard texts.count == fields.count else {
                errors.append(line: line, field: "row", message: "invalid UTF-8 in field \(texts.count + 1) (a \(preset.platformName) export is UTF-8)")
                continue
            }
            switch translator!.translate(PlatformRow(line: line, fields: texts), report: &report) {
            case .record(let record): return record
            case .folded, .skipped: continue
            case .failed(let column, let message): errors.append(line: line, field: column, message: message)
            }
        }
        return nil
    }

    /// The platform's column a canonical one is read from (`Title` for `name` in Shopify's file),
    /// so that what the import finds wrong with a value names the column the owner knows.
    func sourceColumn(of column: CanonicalColumn) -> String? {
        translator?.sourceColumn(of: column)
    }

    private mutating func readHeader() {
        if let error = csv.syntaxError {
            errors.append(line: csv.line, field: "header", message: error.description)
            return
        }
        let names = csv.fields.strings
        var header = PlatformHeader(names: names)
        do {
            translator = try preset.translator(header: &header, options: options)
            report.ignoredColumns = header.ignoredColumns
        } catch {
            errors.append(line: csv.line, field: "header", message: error.message)
        }
    }
}
