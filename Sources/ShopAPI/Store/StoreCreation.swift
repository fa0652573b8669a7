/// What a new store starts with, chosen by whoever creates it. Every later opening of the store
/// keeps what it has.
public enum StoreCreation: Sendable {
    /// The demo catalog (`CatalogSeed`): a store the server creates.
    case demoCatalog
    /// No products: a store `shop-rpc import` creates, which then holds exactly the file.
    case empty
}
