// MARK: - ShopLimits

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
}
