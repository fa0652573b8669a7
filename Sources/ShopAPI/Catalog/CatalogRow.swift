/// One product row of a catalog file (`shop-rpc import`), as read and checked by the file's reader:
/// the SKU it keys on, and each field the file gives for it. A field the file does not give (a
/// CSV column it has no header for, an NDJSON member a line leaves out) is nil: importing the row
/// keeps that field of an existing product as it is. Members are named as in protocol.md.
///
/// A value; `Sendable`. The reader guarantees the file-level rules (protocol.md, "Catalog files"):
/// every present field is well-formed and in range, and no SKU appears twice in one file. Whether
/// a row may create a product (a new SKU needs `name`, `category` and a price) depends on the
/// store, and is checked by the import, as is `price`'s number of decimals (the currency's).
/// A row gives at most one of `priceCents` and `price`.
public struct CatalogRow: Sendable, Equatable {
    /// The 1-based line of the file where the row starts (a CSV record may span lines), for errors.
    public var line: Int
    public var sku: String
    public var name: String?
    public var description: String?
    public var category: String?
    /// Price of one unit in the smallest unit of `currency` (cents): minor units.
    public var priceCents: Int?
    /// ISO 4217 code: three capital letters.
    public var currency: String?
    /// The absolute number of units available.
    public var stock: Int?
    /// Price of one unit in the major units of the currency (`19.99`); the import converts it
    /// to minor units with the currency's ISO 4217 exponent (`CurrencyExponent`).
    public var price: MajorUnitPrice?

    public init(line: Int, sku: String, name: String? = nil, description: String? = nil, category: String? = nil,
                priceCents: Int? = nil, currency: String? = nil, stock: Int? = nil, price: MajorUnitPrice? = nil) {
        self.line = line
        self.sku = sku
        self.name = name
        self.description = description
        self.category = category
        self.priceCents = priceCents
        self.currency = currency
        self.stock = stock
        self.price = price
    }
}
