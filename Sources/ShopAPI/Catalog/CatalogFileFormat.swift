/// The two formats of catalog files: CSV (RFC 4180, with a header row) and NDJSON (one JSON object
/// per line). protocol.md, "Catalog files", says what each accepts.
public enum CatalogFileFormat: String, CaseIterable, Sendable {
    case csv, ndjson

    /// The format a file name's extension names (`.csv`; `.ndjson` or `.jsonl`), ignoring case;
    /// nil for any other name, and for `-` (stdin).
    public static func inferred(fromPath path: String) -> CatalogFileFormat? {
        let fileName = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return nil }
        switch fileName[fileName.index(after: dot)...].lowercased() {
        case "csv": return .csv
        case "ndjson", "jsonl": return .ndjson
        default: return nil
        }
    }

    /// The format to read or write: `explicit` (a `--format` value) when given, else the one
    /// `path`'s extension names.
    ///
    /// - Throws: `CatalogFileFormatError` when there is neither; its `description` is a
    ///   one-line message for the usage error.
    public static func choose(path: String, explicit: CatalogFileFormat?) throws(CatalogFileFormatError) -> CatalogFileFormat {
        if let explicit { return explicit }
        if let inferred = inferred(fromPath: path) { return inferred }
        throw CatalogFileFormatError(path: path)
    }
}

/// Neither `--format` nor the file name says which format a catalog file is in.
public struct CatalogFileFormatError: Error, Equatable, CustomStringConvertible, Sendable {
    public let path: String

    public var description: String {
        if path == "-" { return "reading stdin needs --format csv or --format ndjson" }
        return "cannot tell the format of \(path) from its name (.csv, .ndjson or .jsonl); give --format csv or --format ndjson"
    }
}
