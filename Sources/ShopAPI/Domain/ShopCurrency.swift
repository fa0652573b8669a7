/// A store sells in one currency: that of its products (every product has the same). The demo
/// catalog's is USD; a store created by `shop-rpc import` takes the file's (protocol.md,
/// section 9).
enum ShopCurrency {
    /// The currency of the demo catalog, and of a store that has no products yet.
    static let defaultCode = "USD"
}
