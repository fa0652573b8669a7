/// One variant of the catalog, the unit that is sold and stocked (its SKU), with its product's
/// fields. Immutable value; `Sendable`.
///
/// A product (its `handle`) has one or more variants; the product's fields (`name`,
/// `description`, `category`, `brand`, and the names of its `options`) are the same on every
/// variant of it. Products change only through `shop-rpc import` and `admin.products.upsert`
/// (which can also archive them); stock lives apart, in `StockLevel`.
public struct Product: Codable, Sendable, Equatable {
    /// Stable identifier of the variant, `SKU-0001` … `SKU-0240` in the demo catalog.
    public let sku: String
    public let name: String
    public let description: String
    /// One of the catalog's categories, e.g. `"coffee"`; filters match it exactly.
    public let category: String
    /// Price of one unit in the smallest unit of `currency` (cents).
    public let priceCents: Int
    /// ISO 4217 code; every product of a store has the same (`ShopCurrency`).
    public let currency: String
    /// The product this variant belongs to; a product without variants has its SKU as handle.
    public let handle: String
    /// The product's brand (vendor); may be empty.
    public let brand: String
    /// The variant's option values, one per option name of its product, in the product's order
    /// of names (at most `ProductOption.maxOptions`); empty for a product without options.
    public let options: [ProductOption]

    public init(sku: String, name: String, description: String, category: String, priceCents: Int, currency: String,
                handle: String? = nil, brand: String = "", options: [ProductOption] = []) {
        self.sku = sku
        self.name = name
        self.description = description
        self.category = category
        self.priceCents = priceCents
        self.currency = currency
        self.handle = handle ?? sku
        self.brand = brand
        self.options = options
    }
}
