/// How a catalog file's reader reads it, beyond its format (protocol.md, "Catalog files"):
/// column names mapped to the catalog's, unknown columns skipped or refused, the CSV separator,
/// and whether warnings are errors. The encoding is the source's (`TranscodingSource`).
/// Immutable value; `Sendable`.
public struct CatalogReadOptions: Sendable, Equatable {
    /// The file's column names that stand for catalog columns (`--map`).
    public var mapping: CatalogColumnMapping
    /// An unknown column (or NDJSON member) is skipped with an `ignoredColumn` warning instead of
    /// being an error.
    public var ignoreUnknown: Bool
    /// The CSV separator; nil: the one the header line uses most (`,`, `;` or TAB; `,` on a tie).
    public var delimiter: CSVDelimiter?
    /// The file's warnings (a padded header cell, an ignored column) are errors. The rows'
    /// warnings are the import's: `CatalogImportOptions.strict` makes those errors, so a caller
    /// that wants every warning to be an error (`shop-rpc import --strict`) sets both.
    public var strict: Bool

    public init(mapping: CatalogColumnMapping = .none, ignoreUnknown: Bool = false, delimiter: CSVDelimiter? = nil, strict: Bool = false) {
        self.mapping = mapping
        self.ignoreUnknown = ignoreUnknown
        self.delimiter = delimiter
        self.strict = strict
    }
}

/// The byte that separates a CSV record's fields.
public enum CSVDelimiter: String, CaseIterable, Sendable {
    case comma = ",", semicolon = ";", tab = "\t"

    var byte: UInt8 { rawValue.utf8.first! }

    /// The separator a header line uses: the one of `,`, `;` and TAB that occurs most often in
    /// `line` outside double quotes, up to its first LF or CR (quoted or not, so that what is
    /// looked at is the same however much of the file was read); `,` when none does or on a tie
    /// with it.
    static func detected(inHeader line: UnsafeBufferPointer<UInt8>) -> CSVDelimiter {
        var counts = [0, 0, 0]
        var quoted = false
        for byte in line {
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if quoted { continue }
            if byte == UInt8(ascii: ",") { counts[0] += 1 } else if byte == UInt8(ascii: ";") { counts[1] += 1 } else if byte == 0x09 { counts[2] += 1 }
        }
        if counts[1] > counts[0] && counts[1] >= counts[2] { return .semicolon }
        if counts[2] > counts[0] && counts[2] > counts[1] { return .tab }
        return .comma
    }
}
