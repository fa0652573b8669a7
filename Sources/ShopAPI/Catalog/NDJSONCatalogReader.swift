import FoundationEssentials

/// Reads a catalog NDJSON file: each line one JSON object whose members are named as the CSV
/// columns, returned as a `CatalogRow` once every value is checked; errors go to `errors` and
/// reading goes on. Blank lines (nothing, or only spaces, tabs and CR) are skipped. The JSON is
/// read by FoundationEssentials' `JSONDecoder`. A value type; one thread.
struct NDJSONCatalogReader<Source: ByteSource> {
    private var lines: NDJSONLineReader<Source>
    private let decoder = JSONDecoder()
    private let options: CatalogReadOptions
    private var skus = SKUIndex()
    var errors = CatalogFileErrors()
    private(set) var warnings: [CatalogImportWarning] = []
    private(set) var rowsRead = 0

    init(source: Source, options: CatalogReadOptions = CatalogReadOptions()) {
        lines = NDJSONLineReader(source: source)
        self.options = options
        if options.mapping != .none {
            decoder.userInfo[NDJSONCatalogLine.memberNamesKey] = NDJSONCatalogLine.memberNames(options.mapping)
        }
    }

    var bytesRead: Int { lines.bytesRead }

    mutating func next() throws(ByteSourceError) -> CatalogRow? {
        while let kind = try lines.next() {
            let line = lines.line
            switch kind {
            case .tooLong:
                rowsRead += 1
                errors.append(line: line, field: "line", message: "longer than \(CatalogLimits.maxRecordBytes) bytes")
            case .line:
                if lines.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                rowsRead += 1
                if let row = checkLine(line) { return row }
            }
        }
        return nil
    }

    private mutating func checkLine(_ line: Int) -> CatalogRow? {
        guard lines.bytes.withUnsafeBufferPointer({ String(validating: $0, as: UTF8.self) }) != nil else {
            errors.append(line: line, field: "line", message: "invalid UTF-8" + CatalogFieldRules.encodingHint)
            return nil
        }
        let decoded: NDJSONCatalogLine
        do {
            decoded = try decoder.decode(NDJSONCatalogLine.self, from: Data(lines.bytes))
        } catch DecodingError.typeMismatch {
            errors.append(line: line, field: "line", message: "not a JSON object; each line must be one object such as {\"sku\": \"…\", …}")
            return nil
        } catch {
            errors.append(line: line, field: "line", message: "not valid JSON")
            return nil
        }
        let errorsBefore = errors.count
        for (field, message) in decoded.problems {
            errors.append(line: line, field: field, message: message)
        }
        let memberCount = lines.bytes.withUnsafeBufferPointer { JSONMemberCount.topLevelMembers($0) }
        if memberCount != decoded.columnsFound {
            let others = (try? decoder.decode(NDJSONCatalogLine.OtherMembers.self, from: Data(lines.bytes)))?.names ?? []
            for name in others {
                if options.mapping.target(of: name) == .ignored || options.ignoreUnknown {
                    let message = "member \(CatalogFieldRules.quoted(name)) is not a catalog column: it was not read"
                    if options.strict {
                        errors.append(line: line, field: "line", message: "ignoredColumn: \(message) (--strict)")
                    } else {
                        warnings.note(.ignoredColumn, column: name, line: line, message: message)
                    }
                    continue
                }
                var message = "unknown member \(CatalogFieldRules.quoted(name))"
                if let near = CatalogColumn.caseInsensitiveMatch(name) { message += " (did you mean \(near.rawValue)?)" }
                errors.append(line: line, field: "line", message: message + "; the members are \(CatalogColumn.acceptedList)")
            }
            if memberCount > decoded.columnsFound + others.count {
                errors.append(line: line, field: "line", message: "a member is given twice")
            }
        }
        var row = CatalogRow(line: line, sku: "")
        var optionNames: [String?] = [nil, nil, nil]
        var optionValues: [String?] = [nil, nil, nil]
        var hasSKU = false
        for (column, value) in decoded.values {
            switch value {
            case .integer(let number):
                let max = column == .stock ? CatalogLimits.maxStock : CatalogLimits.maxPriceCents
                if let message = CatalogFieldRules.checkRange(number, max: max) {
                    errors.append(line: line, field: column.rawValue, message: message)
                } else if column == .stock {
                    row.stock = number
                } else {
                    row.priceCents = number
                }
            case .price(let price):
                row.price = price
            case .text(let text):
                if let message = CSVCatalogReader<Source>.check(column, text) {
                    errors.append(line: line, field: column.rawValue, message: message)
                    if column == .sku { hasSKU = true }
                    continue
                }
                if column == .sku { hasSKU = true }
                row.take(column, text: text, optionNames: &optionNames, optionValues: &optionValues)
            }
        }
        for problem in row.finishCells(optionNames: optionNames, optionValues: optionValues) {
            errors.append(line: line, field: problem.field, message: problem.message)
        }
        if !hasSKU && !decoded.problems.contains(where: { $0.0 == "sku" }) {
            errors.append(line: line, field: "sku", message: "missing; every line needs a sku")
        }
        guard !row.sku.isEmpty else { return nil }
        if let message = CatalogFieldRules.repeatedSKU(row.sku, skus.insert(row.sku, line: line)) {
            errors.append(line: line, field: "sku", message: message)
            return nil
        }
        return errors.count == errorsBefore ? row : nil
    }
}
