/// Where `shop-rpc import` takes its rows from: a catalog file's reader, which checks every
/// file-level rule (protocol.md, "Catalog files") and hands over only good rows, in file order.
///
/// What the store finds wrong with a row (a new SKU without a name, another currency) is
/// reported back to the source with `reportError`, so that the file's errors, its own and the
/// store's, are counted and shown together. The import writes nothing unless `hasErrors` is
/// still false once `nextRow()` has returned nil. One thread at a time: an import hands the source
/// to a reading thread of its own and back (`CatalogRowPrefetcher`), so its type is used from that
/// thread too, hence `SendableMetatype` (every concrete type qualifies).
public protocol CatalogRowSource: SendableMetatype {
    /// The next good row, or nil at the end of the file. Reads on past bad rows.
    mutating func nextRow() throws -> CatalogRow?
    /// Whether any error was found so far, in the file or reported by the import.
    var hasErrors: Bool { get }
    /// Records an error the import found with the row that starts on `line`.
    mutating func reportError(line: Int, field: String, message: String)
    /// Bytes of the file read so far, for progress.
    var bytesRead: Int { get }
    /// What the source found legal but probably a mistake (a padded header cell, an ignored
    /// column), which the import lists first in its summary; read once `nextRow()` returned nil.
    var warnings: [CatalogImportWarning] { get }
}

extension CatalogRowSource {
    /// A source that finds nothing to warn about.
    public var warnings: [CatalogImportWarning] { [] }
}
