/// One catalog entry. Immutable value; `Sendable`.
///
/// Products change only through `shop-rpc import` (which can also archive them); stock lives
/// apart, in `StockLevel`.
public struct Product: Codable, Sendable, Equatable {
    /// Stable identifier, `SKU-0001` … `SKU-0240` in the demo catalog.
    public let sku: String
    public let name: String
    public let description: String
    /// One of the catalog's categories, e.g. `"coffee"`; filters match it exactly.
    public let category: String
    /// Price of one unit in the smallest unit of `currency` (cents).
    public let priceCents: Int
    /// ISO 4217 code; every product of a store has the same (`ShopCurrency`).
    public let currency: String

    public init(sku: String, name: String, description: String, category: String, priceCents: Int, currency: String) {
        self.sku = sku
        self.name = name
        self.description = description
        self.category = category
        self.priceCents = priceCents
        self.currency = currency
    }
}
