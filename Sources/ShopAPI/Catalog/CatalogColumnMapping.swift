/// Which catalog column each of a file's own column names stands for (`--map 'Their
/// Column=field,…'`, or a platform preset's table): a CSV header cell or an NDJSON member named
/// here is read as that column, or skipped (with an `ignoredColumn` warning) when mapped to
/// nothing. Names not in the mapping are read as they are. Immutable value; `Sendable`.
///
/// ```swift
/// let mapping = try CatalogColumnMapping(parsing: "Variant SKU=sku,Title=name,Image Src=")
/// mapping.target(of: "Title")      // .column(.name)
/// mapping.target(of: "Image Src")  // .ignored
/// ```
public struct CatalogColumnMapping: Sendable, Equatable {
    /// What a file's column name is read as.
    public enum Target: Sendable, Equatable {
        case column(CatalogColumn)
        /// Skipped, with an `ignoredColumn` warning.
        case ignored
    }

    /// The file's names (white space around them trimmed) and what each is read as, in order.
    public private(set) var entries: [(name: String, target: Target)]

    /// No renaming.
    public static let none = CatalogColumnMapping(entries: [])

    /// - Precondition: no name appears twice.
    public init(entries: [(name: String, target: Target)]) {
        self.entries = entries
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.entries.map(\.name) == rhs.entries.map(\.name) && lhs.entries.map(\.target) == rhs.entries.map(\.target)
    }

    /// Reads `NAME=column,NAME=column,…`: each NAME a column of the file (trimmed; it cannot hold
    /// `,` or `=`), each column one of `CatalogColumn`'s names, or nothing (`NAME=`) to skip NAME.
    /// - Throws: `CatalogColumnMappingError` for an entry without `=`, an empty NAME, a name
    ///   given twice, an unknown column (with a "did you mean" hint), or two names for one column.
    public init(parsing text: String) throws(CatalogColumnMappingError) {
        var entries: [(name: String, target: Target)] = []
        for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else {
                throw CatalogColumnMappingError(message: "\(CatalogFieldRules.quoted(String(entry))) is not NAME=column")
            }
            let name = Self.trimmed(String(parts[0]))
            let field = Self.trimmed(String(parts[1]))
            guard !name.isEmpty else { throw CatalogColumnMappingError(message: "\(CatalogFieldRules.quoted(String(entry))) has no NAME before =") }
            guard !entries.contains(where: { $0.name == name }) else {
                throw CatalogColumnMappingError(message: "\(CatalogFieldRules.quoted(name)) is mapped twice")
            }
            let target: Target
            if field.isEmpty {
                target = .ignored
            } else if let column = CatalogColumn(rawValue: field) {
                if entries.contains(where: { $0.target == .column(column) }) {
                    throw CatalogColumnMappingError(message: "two names are mapped to \(column.rawValue)")
                }
                target = .column(column)
            } else {
                var message = "\(CatalogFieldRules.quoted(field)) is not a column"
                if let near = CatalogColumn.caseInsensitiveMatch(field) { message += " (did you mean \(near.rawValue)?)" }
                throw CatalogColumnMappingError(message: message + "; the columns are \(CatalogColumn.acceptedList)")
            }
            entries.append((name, target))
        }
        self.entries = entries
    }

    /// What the file's column `name` (already trimmed) is read as; nil when the mapping does not
    /// name it (then it is read as the column of that name, if there is one).
    public func target(of name: String) -> Target? {
        entries.first { $0.name == name }?.target
    }

    /// The file's name for `column`, when the mapping renames a name to it.
    func fileName(of column: CatalogColumn) -> String? {
        entries.first { $0.target == .column(column) }?.name
    }

    /// `text` without the spaces and tabs around it (what spreadsheets pad header cells with).
    static func trimmed(_ text: String) -> String {
        let isPadding: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\u{A0}" }
        guard let first = text.firstIndex(where: { !isPadding($0) }), let last = text.lastIndex(where: { !isPadding($0) }) else { return "" }
        return String(text[first...last])
    }
}

/// A `--map` value that cannot be read; `message` says why (for the usage error).
public struct CatalogColumnMappingError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
