/// How far an import has read, reported while it runs (for `shop-rpc import`'s progress line).
/// Value type; `Sendable`.
public struct CatalogImportProgress: Sendable, Equatable {
    /// Good rows taken from the file so far.
    public var rows: Int
    /// Bytes of the file read so far.
    public var bytesRead: Int
    /// True once every row is read and the store is committing (or checking, for a dry run).
    public var finishing: Bool

    public init(rows: Int, bytesRead: Int, finishing: Bool = false) {
        self.rows = rows
        self.bytesRead = bytesRead
        self.finishing = finishing
    }

    /// Rows between two reports.
    static let rowInterval = 1024
}
