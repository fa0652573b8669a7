/// Who may call which shop method. Every method of `ShopMethods` is in one scope, and a server
/// serves only the scopes its operator allows (`shop-rpc --allow`, `--read-only`); the engine
/// refuses the others (-32601 with `data.scope`) and leaves them out of `rpc.discover` and MCP's
/// `tools/list` (`MethodSpec.scoped`, `EngineConfiguration.allowedScopes`).
public enum ShopScope: String, CaseIterable, Sendable {
    /// Looking, changing nothing: `catalog.*`, `inventory.check`, `cart.get`, `orders.get`, `orders.list`.
    case read
    /// A customer's changes: `cart.add`, `cart.remove`, `cart.clear`, `orders.place`, `orders.cancel`.
    case write
    /// The operator's methods: `admin.stock.adjust`, `admin.stock.set`, `admin.products.upsert`,
    /// `admin.products.archive`.
    case admin

    /// What a server serves unless told otherwise: every customer method, nothing of the operator's.
    public static let defaultAllowed: [ShopScope] = [.read, .write]
}
