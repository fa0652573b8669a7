/// The ranges a catalog file's values must lie in (protocol.md, "Catalog files"). Lengths are in
/// characters (Unicode scalar values), not bytes.
public enum CatalogLimits {
    /// Longest `sku` or `category`.
    public static let maxIdentifierLength = 64
    /// Longest `name` (a name is never empty or only white space).
    public static let maxNameLength = 255
    /// Longest `description` (it may be empty).
    public static let maxDescriptionLength = 20_000
    /// Largest `priceCents`: ten billion units of the currency.
    public static let maxPriceCents = 1_000_000_000_000
    /// Largest `stock`.
    public static let maxStock = 1_000_000_000
    /// Longest CSV record or NDJSON line, in bytes; a longer one ends the reading with an error
    /// (it is most likely an unterminated quote), so memory stays bounded whatever the input.
    public static let maxRecordBytes = 1 << 20
    /// Most errors a reader keeps; the rest are only counted.
    public static let maxReportedErrors = 50
}
