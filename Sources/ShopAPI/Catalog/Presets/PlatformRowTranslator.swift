/// Translates one platform's rows, in file order, into canonical records (one per variant the
/// platform sells). Each preset keeps what later rows need (Shopify's product on its first row,
/// WooCommerce's variable parents), and nothing else. One thread; created once per file.
protocol PlatformRowTranslator {
    /// Finds the columns it reads in `header`, marking them used.
    init(header: inout PlatformHeader, options: PlatformImportOptions) throws(PlatformHeaderError)

    /// What `row` is: a record, a row folded into later records, a row skipped, or an error.
    mutating func translate(_ row: PlatformRow, report: inout PlatformImportReport) -> PlatformRowOutcome

    /// The platform column a canonical column is read from, for error messages (`name` is Shopify's `Title`).
    func sourceColumn(of column: CanonicalColumn) -> String?
}

/// What a preset made of one platform row.
enum PlatformRowOutcome {
    /// A variant to import.
    case record(CanonicalCatalogRecord)
    /// A row that describes a product whose variants come on other rows (WooCommerce's `variable`
    /// parent): nothing to import by itself.
    case folded
    /// A row shop-rpc has nothing to import from, counted in the summary by reason.
    case skipped(PlatformSkipReason)
    /// A row that cannot be read: the platform's column and what is wrong.
    case failed(column: String, message: String)
}

/// Why a preset skipped a row; the raw value names it in the summary's `skippedRows`.
public enum PlatformSkipReason: String, CaseIterable, Sendable {
    /// Shopify: a row that only adds an image to the product above it.
    case imageOnly = "image-only"
    /// WooCommerce: a grouped product, a list of other products with no price or stock of its own.
    case grouped
    /// WooCommerce: an external product, sold on another site through a link.
    case external
    /// WooCommerce: a variation that is not enabled (`Published` 0 or -1).
    case disabledVariation = "disabled-variation"
}
