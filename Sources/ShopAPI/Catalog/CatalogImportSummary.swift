/// What an import did, or would do (`--dry-run`), as `shop-rpc import` prints it on stdout
/// (protocol.md, section 9). Value type; `Sendable`.
///
/// Every row of the file is counted once as `created` (a SKU the store did not have), `updated`
/// (a product whose name, description, category, price or currency the row changes, or an
/// archived product the row brings back) or `unchanged`, so `rows == created + updated +
/// unchanged`. Stock is not a product field: `stockSet` counts the rows whose `stock` changes the
/// level (for a new product, any `stock` given), whatever their product count. `archived` counts
/// the products `--replace` archives. `warnings` lists what is legal but probably a mistake
/// (`CatalogImportWarning`): the file's own (its header), then the rows', each kind once.
public struct CatalogImportSummary: Codable, Sendable, Equatable {
    public var rows = 0
    public var created = 0
    public var updated = 0
    public var unchanged = 0
    public var archived = 0
    public var stockSet = 0
    public var warnings: [CatalogImportWarning] = []

    /// Rows that gave `priceCents`, and the first of them below one major unit (for the
    /// `priceCentsBelowOneUnit` warning, decided once every row is counted).
    var priceCentsRows = 0
    var priceCentsBelowOneUnit: CatalogImportWarning?
    /// One major unit of the store's currency in minor units, looked up once per import.
    var oneUnit: (currency: String, minorUnits: Int)?

    private enum CodingKeys: String, CodingKey {
        case rows, created, updated, unchanged, archived, stockSet, warnings
    }

    public init(rows: Int = 0, created: Int = 0, updated: Int = 0, unchanged: Int = 0, archived: Int = 0, stockSet: Int = 0,
                warnings: [CatalogImportWarning] = []) {
        self.rows = rows
        self.created = created
        self.updated = updated
        self.unchanged = unchanged
        self.archived = archived
        self.stockSet = stockSet
        self.warnings = warnings
    }

    /// The one line `shop-rpc import` prints: the counts in this order, then `warnings` (an
    /// array of `CatalogImportWarning` objects) only when there is one.
    public var json: String {
        var text = "{\"rows\":\(rows),\"created\":\(created),\"updated\":\(updated),\"unchanged\":\(unchanged),\"archived\":\(archived),\"stockSet\":\(stockSet)"
        if !warnings.isEmpty { text += ",\"warnings\":[" + warnings.map(\.json).joined(separator: ",") + "]" }
        return text + "}"
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        (lhs.rows, lhs.created, lhs.updated, lhs.unchanged, lhs.archived, lhs.stockSet) ==
            (rhs.rows, rhs.created, rhs.updated, rhs.unchanged, rhs.archived, rhs.stockSet) && lhs.warnings == rhs.warnings
    }
}
