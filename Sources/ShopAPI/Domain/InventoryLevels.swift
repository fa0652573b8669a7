/// The result of `inventory.check`: one level per requested SKU, in request order (duplicates
/// answered each time), all read from one consistent snapshot. Immutable value; `Sendable`.
public struct InventoryLevels: Codable, Sendable, Equatable {
    public let levels: [StockLevel]

    public init(levels: [StockLevel]) {
        self.levels = levels
    }
}
