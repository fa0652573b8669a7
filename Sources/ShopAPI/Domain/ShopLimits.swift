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
    /// Most lines (distinct SKUs) one cart may hold: a `cart.add` that would start line 101 fails
    /// with `.cartFull`; adding to a line the cart already has is always allowed.
    ///
    /// Why 100: it bounds a cart's total, and so an order's, at 100 × `maxLineQuantity` ×
    /// `CatalogLimits.maxPriceCents` = 9.99 × 10^16 cents, 92 times below `Int64.max`, so no cart
    /// built under this limit has a total that cannot be represented (any limit up to 9 000 would
    /// keep that); it is far beyond a real basket; and it equals `maxSkusPerCheck`, so one
    /// `inventory.check` can always ask for every SKU of a cart. Totals are still summed with
    /// overflow checks (`[CartLine].checkedTotalCents`): carts written before this limit existed,
    /// or under a larger one later, may hold more.
    public static let maxCartLines = 100
    /// Most products one search page returns; larger limits are clamped to this.
    public static let maxSearchResults = 200
    /// Products per search page when a caller passes no limit (or one below 1).
    public static let defaultSearchPageSize = 20
    /// Most values `ProductSearchFilters.categories` or `.brands` may list. Enforced by the binding.
    public static let maxSearchFilterValues = 50
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
