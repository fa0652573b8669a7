/// A platform whose product CSV export `shop-rpc import --from` reads as the platform writes it,
/// with no edits (protocol.md, section 11, "Platform exports"). Each preset translates the
/// platform's rows into canonical catalog records (`CanonicalCatalogRecord`), which the ordinary
/// import then checks and writes like any catalog file's rows.
public enum CatalogPreset: String, CaseIterable, Sendable {
    /// Shopify's product CSV (the admin's export and its `product_template.csv`).
    case shopify
    /// WooCommerce's product CSV exporter and importer (`sample_products.csv`).
    case woocommerce
    /// Medusa v2's product import template and export.
    case medusa

    /// The platform's own name, for messages.
    public var platformName: String {
        switch self {
        case .shopify: "Shopify"
        case .woocommerce: "WooCommerce"
        case .medusa: "Medusa"
        }
    }

    /// A new translator of this platform's rows for a file whose header is `header`.
    /// - Throws: `PlatformHeaderError` when the header is not this platform's (a key column is
    ///   missing) or `options` asks for what the file lacks (`--currency` with no such price column).
    func translator(header: inout PlatformHeader, options: PlatformImportOptions) throws(PlatformHeaderError) -> any PlatformRowTranslator {
        switch self {
        case .shopify: try ShopifyRowTranslator(header: &header, options: options)
        case .woocommerce: try WooCommerceRowTranslator(header: &header, options: options)
        case .medusa: try MedusaRowTranslator(header: &header, options: options)
        }
    }
}

/// What `--from` imports take besides the file: the currency the store sells in, when the
/// command line names one (`--currency`). Shopify and WooCommerce files carry no currency, so
/// their records carry this one (or none: the store's); Medusa's carry one price column per
/// currency, and this chooses which.
public struct PlatformImportOptions: Sendable, Equatable {
    /// An ISO 4217 code (three capital letters), or nil.
    public var currency: String?

    public init(currency: String? = nil) {
        self.currency = currency
    }
}
