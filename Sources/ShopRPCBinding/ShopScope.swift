/// Who may call which shop method. Every method of `ShopMethods` is in one scope, and a server
/// serves only the scopes its operator allows (`shop-rpc --allow`, `--read-only`); the engine
/// refuses the others (-32601 with `data.scope`) and leaves them out of `rpc.discover` and MCP's
/// `tools/list` (`MethodSpec.scoped`, `EngineConfiguration.allowedScopes`).
public enum ShopScope: String, CaseIterable, Sendable {
    /// The shop's window, no cart and no order: `catalog.*`, `inventory.check`.
    case browse
    /// Looking at carts and orders, changing nothing: `cart.get`, `orders.get`, `orders.list`.
    /// A server allowed `read` serves `browse` too (`served(_:)`).
    case read
    /// A customer's changes: `cart.add`, `cart.remove`, `cart.clear`, `orders.place`, `orders.cancel`.
    case write
    /// The operator's methods: `admin.stock.adjust`, `admin.stock.set`, `admin.products.upsert`,
    /// `admin.products.archive`.
    case admin

    /// What a server serves unless told otherwise: every customer method, nothing of the operator's.
    public static let defaultAllowed: [ShopScope] = [.read, .write]

    /// The scopes a server allowed `allowed` serves: `read` takes `browse` with it (looking at
    /// carts and orders without the catalog would be no shop), nothing else is implied.
    public static func served(_ allowed: some Sequence<ShopScope>) -> Set<ShopScope> {
        var served = Set(allowed)
        if served.contains(.read) { served.insert(.browse) }
        return served
    }
}
