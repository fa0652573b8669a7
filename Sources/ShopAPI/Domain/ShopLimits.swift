/// Sizes the shop enforces or clamps to. The binding validates request parameters against these;
/// the service clamps page sizes to them.
public enum ShopLimits {
    /// Page size used when a caller passes a limit below 1.
    public static let defaultPageSize = 50
    /// Larger page sizes are clamped to this.
    public static let maxPageSize = 200
    /// Most SKUs one `inventory.check` may name. Enforced by the binding (as invalid params);
    /// the service itself answers any number.
    public static let maxSkusPerCheck = 100
    /// Most units of one SKU a cart line may hold.
    public static let maxLineQuantity = 999
    /// Most products one search returns; larger limits are clamped to this.
    public static let maxSearchResults = 200
    /// Highest level `admin.stock.adjust` and `admin.stock.set` may leave a SKU at, and largest
    /// delta an adjust may ask. (Cancelled orders give their units back whatever the level.)
    public static let maxStock = 1_000_000_000
    /// Longest `reason` of `orders.cancel`, in UTF-8 bytes.
    public static let maxCancelReasonBytes = 256
    /// Most ledger rows one `stockMovements` read returns.
    public static let maxLedgerPage = 10_000
    /// Most products one `admin.products.upsert` or `admin.products.archive` may name.
    public static let maxProductsPerCall = 1000
}
