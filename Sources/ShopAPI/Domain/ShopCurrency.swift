// MARK: - ShopCurrency

/// The one currency this shop sells in.
enum ShopCurrency {
    static let code = "USD"
}
