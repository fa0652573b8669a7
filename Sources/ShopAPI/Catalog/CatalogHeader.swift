/// A catalog CSV header read into columns (protocol.md, "Catalog files"): each cell trimmed of
/// the spaces and tabs around it (a warning), renamed by the mapping, and either a catalog column,
/// skipped (mapped to nothing, or unknown with `ignoreUnknown`: a warning) or an error (unknown,
/// with a "did you mean" hint; repeated). Under `strict` the warnings are errors. Pure value.
struct CatalogHeader {
    /// Each header position's column; nil for one whose cells are not read.
    private(set) var columns: [CatalogColumn?] = []
    private(set) var errors: [CatalogFileError] = []
    private(set) var warnings: [CatalogImportWarning] = []

    /// Reads the header cells `names` (nil: a cell that is not valid UTF-8) on `line`.
    init(_ names: [String?], line: Int, options: CatalogReadOptions) {
        var seen = Set<CatalogColumn>()
        for (position, cell) in names.enumerated() {
            guard let cell else {
                errors.append(CatalogFileError(line: line, field: "header", message: "invalid UTF-8 in column \(position + 1)" + CatalogFieldRules.encodingHint))
                columns.append(nil)
                continue
            }
            let name = CatalogColumnMapping.trimmed(cell)
            if name != cell && !name.isEmpty {
                warn(.trimmedHeader, name, line: line, options: options,
                     message: "the header cell \(CatalogFieldRules.quoted(cell)) has white space around its name, read as \(CatalogFieldRules.quoted(name))")
            }
            let target = options.mapping.target(of: name) ?? CatalogColumn(rawValue: name).map { .column($0) }
            switch target {
            case .column(let column)?:
                if seen.insert(column).inserted {
                    columns.append(column)
                } else {
                    let renamed = options.mapping.fileName(of: column).map { " (\(CatalogFieldRules.quoted($0)) is mapped to it)" } ?? ""
                    errors.append(CatalogFileError(line: line, field: "header", message: "column \(column.rawValue) appears twice\(renamed)"))
                    columns.append(nil)
                }
            case .ignored?:
                ignore(name, position: position, line: line, options: options)
            case nil where options.ignoreUnknown:
                ignore(name, position: position, line: line, options: options)
            case nil:
                var message = name.isEmpty ? "column \(position + 1) has no name" : "unknown column \(CatalogFieldRules.quoted(name))"
                if let near = CatalogColumn.caseInsensitiveMatch(name) { message += " (did you mean \(near.rawValue)?)" }
                errors.append(CatalogFileError(line: line, field: "header", message: message + "; the columns are \(CatalogColumn.acceptedList)"))
                columns.append(nil)
            }
        }
        if !columns.contains(.sku) {
            errors.append(CatalogFileError(line: line, field: "header", message: "no sku column; the columns are \(CatalogColumn.acceptedList) (sku is required)"))
        }
    }

    private mutating func ignore(_ name: String, position: Int, line: Int, options: CatalogReadOptions) {
        let shown = name.isEmpty ? "column \(position + 1)" : CatalogFieldRules.quoted(name)
        warn(.ignoredColumn, name.isEmpty ? "column \(position + 1)" : name, line: line, options: options,
             message: "\(shown) is not a catalog column: its cells were not read")
        columns.append(nil)
    }

    private mutating func warn(_ kind: CatalogImportWarning.Kind, _ column: String, line: Int, options: CatalogReadOptions, message: String) {
        if options.strict {
            errors.append(CatalogFileError(line: line, field: "header", message: "\(kind.rawValue): \(message) (--strict)"))
        } else {
            warnings.note(kind, column: column, line: line, message: message)
        }
    }
}
