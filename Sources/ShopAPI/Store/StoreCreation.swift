/// What a new store starts with, chosen by whoever creates it. Every later opening of the store
/// keeps what it has.
public enum StoreCreation: Sendable {
    /// The demo catalog (`CatalogSeed`): a store the server creates.
    case demoCatalog
    /// No products.
    case empty
    /// No products, and no store at all until an import commits: a store `shop-rpc import`
    /// creates, which then holds exactly the file, and of which a failed import (or a dry run)
    /// leaves nothing behind. On PostgreSQL, a database without the shop's schema gets it inside
    /// the import's own transaction (`PostgreSQLShopStore.open`), so a rollback takes it away too,
    /// and the store serves nothing but imports until one commits. On SQLite it is `.empty`: the
    /// command builds a new file aside and moves it into place only on success (`NewStoreImport`).
    case importedFile
}
