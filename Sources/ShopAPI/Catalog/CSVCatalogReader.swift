/// Reads a catalog CSV file: its header (`CatalogHeader`), then each record as a `CatalogRow`,
/// checking every value (`CatalogFieldRules`) and collecting what is wrong in `errors`. Records
/// with an error are not returned, and reading goes on so that every error in the file is found.
/// Records whose fields are all empty (`,,,,` rows a spreadsheet leaves) are skipped. A value
/// type; one thread.
struct CSVCatalogReader<Source: ByteSource> {
    private var csv: CSVReader<Source>
    private let options: CatalogReadOptions
    /// Each header position's column; nil for an unknown, ignored or repeated one (its cells are
    /// not read).
    private var columns: [CatalogColumn?] = []
    private var headerRead = false
    private var skuPosition: Int?
    /// Where the header has a `handle` column: a row that gives a handle has its empty product
    /// fields filled down.
    private var handlePosition: Int?
    /// Whether the header has both `price` and `priceCents`: then each row fills one of them and
    /// leaves the other empty.
    private var hasBothPriceColumns = false
    private var skus = SKUIndex()
    var errors = CatalogFileErrors()
    private(set) var warnings: [CatalogImportWarning] = []
    private(set) var rowsRead = 0

    init(source: Source, options: CatalogReadOptions = CatalogReadOptions()) {
        csv = CSVReader(source: source, delimiter: options.delimiter)
        self.options = options
    }

    var bytesRead: Int { csv.bytesRead }

    /// The header's known columns in file order; nil before the header is read.
    var presentColumns: [CatalogColumn]? { headerRead ? columns.compactMap { $0 } : nil }

    mutating func next() throws(ByteSourceError) -> CatalogRow? {
        if !headerRead {
            headerRead = true
            guard try csv.next() else {
                errors.append(line: 1, field: "header", message: "the file is empty; its first line must name the columns (\(CatalogColumn.acceptedList))")
                return nil
            }
            readHeader()
        }
        while try csv.next() {
            if csv.fields.bytes.isEmpty && csv.syntaxError == nil { continue }
            rowsRead += 1
            if let row = checkRecord() { return row }
        }
        return nil
    }

    private mutating func readHeader() {
        let line = csv.line
        if let error = csv.syntaxError {
            errors.append(line: line, field: "header", message: error.description)
        }
        let fields = csv.fields
        let header = CatalogHeader((0..<fields.count).map { fields.string(at: $0) }, line: line, options: options)
        header.errors.forEach { errors.append($0) }
        warnings = header.warnings
        columns = header.columns
        skuPosition = columns.firstIndex(of: .sku)
        handlePosition = columns.firstIndex(of: .handle)
        hasBothPriceColumns = columns.contains(.price) && columns.contains(.priceCents)
    }

    /// The current record as a row, or nil (after recording its errors) when it is not good.
    private mutating func checkRecord() -> CatalogRow? {
        let line = csv.line
        if let error = csv.syntaxError {
            errors.append(line: line, field: "row", message: error.description)
            return nil
        }
        let fields = csv.fields
        guard fields.count == columns.count else {
            errors.append(line: line, field: "row", message: "\(fields.count) field\(fields.count == 1 ? "" : "s"), but the header has \(columns.count)")
            return nil
        }
        var row = CatalogRow(line: line, sku: "")
        var optionNames: [String?] = [nil, nil, nil]
        var optionValues: [String?] = [nil, nil, nil]
        let errorsBefore = errors.count
        // One pass over the whole record instead of a validation per field, for the usual
        // all-ASCII record (the per-field validation is a generic, unspecialised call).
        let isASCII = fields.isASCII
        let hasHandle = handlePosition.map { position in fields.withBytes(at: position) { !$0.isEmpty } } ?? false
        for (position, column) in columns.enumerated() {
            guard let column else { continue }
            if hasBothPriceColumns && (column == .price || column == .priceCents) && fields.byteCount(at: position) == 0 { continue }
            switch column {
            case .price:
                switch fields.withBytes(at: position, { MajorUnitPrice.parse($0) }) {
                case .success(let price): row.price = price
                case .failure(let error): errors.append(line: line, field: column.rawValue, message: error.message)
                }
            case .priceCents, .stock:
                let max = column == .stock ? CatalogLimits.maxStock : CatalogLimits.maxPriceCents
                switch fields.withBytes(at: position, { CatalogFieldRules.parseInteger($0, max: max) }) {
                case .success(let value):
                    if column == .stock { row.stock = value } else { row.priceCents = value }
                case .failure(let error):
                    errors.append(line: line, field: column.rawValue, message: error.message)
                }
            case .sku, .name, .description, .category, .currency, .handle, .brand, .status,
                 .option1Name, .option1Value, .option2Name, .option2Value, .option3Name, .option3Value:
                guard let cell = isASCII ? fields.string(validUTF8: position) : fields.string(at: position) else {
                    errors.append(line: line, field: column.rawValue, message: "invalid UTF-8" + CatalogFieldRules.encodingHint)
                    continue
                }
                // Without the quote an export put in front of a formula-like value.
                let value = CSVTextCell.restored(cell)
                // On a row with a handle, an empty cell of a product field (or an option) is not
                // given: the handle's first row gives it (CatalogVariantGroups fills it down).
                if value.isEmpty && column.emptyIsAbsent(withHandle: hasHandle) {
                    continue
                }
                if let message = Self.check(column, value) {
                    errors.append(line: line, field: column.rawValue, message: message)
                    continue
                }
                row.take(column, text: value, optionNames: &optionNames, optionValues: &optionValues)
            }
        }
        for problem in row.finishCells(optionNames: optionNames, optionValues: optionValues) {
            errors.append(line: line, field: problem.field, message: problem.message)
        }
        // A good SKU is remembered even when another field of its row is wrong, so that a later
        // row with the same SKU is reported too.
        guard let skuPosition, !row.sku.isEmpty else { return nil }
        // The SKU as read (its bytes in the file), unless the reader took an export's quote off it.
        let insertion = fields.withBytes(at: skuPosition) { bytes in
            bytes.count == row.sku.utf8.count ? skus.insert(bytes, line: line) : skus.insert(row.sku, line: line)
        }
        if let message = CatalogFieldRules.repeatedSKU(row.sku, insertion) {
            errors.append(line: line, field: "sku", message: message)
            return nil
        }
        return errors.count == errorsBefore ? row : nil
    }

    static func check(_ column: CatalogColumn, _ value: String) -> String? {
        CatalogFieldRules.check(column, value)
    }
}
