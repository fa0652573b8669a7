/// How `shop-rpc import` treats the store (protocol.md, section 9). Immutable value; `Sendable`.
public struct CatalogImportOptions: Sendable, Equatable {
    /// The file is the whole catalog: every product it does not list is archived.
    public var replace: Bool
    /// Validate and count only: nothing is written, and the store is never locked for writing.
    public var dryRun: Bool
    /// Every warning is an error: the import reports them as errors and writes nothing.
    public var strict: Bool

    public init(replace: Bool = false, dryRun: Bool = false, strict: Bool = false) {
        self.replace = replace
        self.dryRun = dryRun
        self.strict = strict
    }
}
