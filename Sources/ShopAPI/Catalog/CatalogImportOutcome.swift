/// How an import ended. Value type; `Sendable`.
public struct CatalogImportOutcome: Sendable, Equatable {
    /// The counts; meaningful only when `committed` or for a dry run without errors.
    public var summary: CatalogImportSummary
    /// Whether the store now holds the file (false for a dry run, and whenever the file or a row
    /// had an error: then nothing was written).
    public var committed: Bool

    public init(summary: CatalogImportSummary, committed: Bool) {
        self.summary = summary
        self.committed = committed
    }
}
