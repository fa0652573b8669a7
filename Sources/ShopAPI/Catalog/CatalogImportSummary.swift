/// What an import did, or would do (`--dry-run`), as `shop-rpc import` prints it on stdout
/// (protocol.md, section 9). Value type; `Sendable`.
///
/// Every row of the file is counted once as `created` (a SKU the store did not have), `updated`
/// (a product whose name, description, category, price or currency the row changes, or an
/// archived product the row brings back) or `unchanged`, so `rows == created + updated +
/// unchanged`. Stock is not a product field: `stockSet` counts the rows whose `stock` changes the
/// level (for a new product, any `stock` given), whatever their product count. `archived` counts
/// the products `--replace` archives.
public struct CatalogImportSummary: Codable, Sendable, Equatable {
    public var rows = 0
    public var created = 0
    public var updated = 0
    public var unchanged = 0
    public var archived = 0
    public var stockSet = 0

    public init(rows: Int = 0, created: Int = 0, updated: Int = 0, unchanged: Int = 0, archived: Int = 0, stockSet: Int = 0) {
        self.rows = rows
        self.created = created
        self.updated = updated
        self.unchanged = unchanged
        self.archived = archived
        self.stockSet = stockSet
    }

    /// The one line `shop-rpc import` prints: the members in this order, integers only.
    public var json: String {
        "{\"rows\":\(rows),\"created\":\(created),\"updated\":\(updated),\"unchanged\":\(unchanged),\"archived\":\(archived),\"stockSet\":\(stockSet)}"
    }
}
