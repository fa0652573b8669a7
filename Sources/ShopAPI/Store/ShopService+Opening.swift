import FoundationEssentials

/// Opening a shop on a store: the one place that chooses a concrete store (SQLite or PostgreSQL)
/// from a `--db` value. The domain (`ShopService`) sees only the `ShopStore` seam.
extension ShopService {
    /// `$XDG_DATA_HOME/shop-rpc/shop.sqlite`, else `~/.local/share/shop-rpc/shop.sqlite`: where
    /// the `shop-rpc` command keeps its store unless told otherwise (`--db`). A program embedding
    /// the shop chooses its own path.
    package static var defaultDatabasePath: String {
        let environment = ProcessInfo.processInfo.environment
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = xdg
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
                ?? FileManager.default.homeDirectoryForCurrentUser.path
            dataHome = home + "/.local/share"
        }
        return dataHome + "/shop-rpc/shop.sqlite"
    }

    /// The scheme of a `--db` value that is a URI (`postgres://…` → `postgres`), or nil for a file
    /// path or `:memory:`. Such values name no file and must not be opened as one. A PostgreSQL
    /// scheme followed by `:` alone (`postgresql:/shop`, a slash short) counts too, so the typo
    /// fails (`open` refuses it) instead of creating a SQLite store in a directory `postgresql:`.
    public static func uriScheme(of location: String) -> String? {
        if let colon = location.firstIndex(of: ":"), postgresSchemes.contains(location[..<colon].lowercased()) {
            return String(location[..<colon])
        }
        guard let separator = location.firstRange(of: "://") else { return nil }
        let scheme = location[..<separator.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return String(scheme)
    }

    /// URI schemes that open a PostgreSQL store.
    public static let postgresSchemes: Set<String> = ["postgres", "postgresql"]

    /// Connections a PostgreSQL store keeps unless told otherwise (`--db-pool`).
    public static let defaultPostgresPoolSize = 4

    /// Opens the store at `path` and migrates its schema. A new store starts as `creation` says:
    /// with the demo catalog (what the server does), or empty (what `shop-rpc import` does).
    ///
    /// - A `postgres://` or `postgresql://` URI, the scheme in any case (anything libpq accepts, e.g.
    ///   `postgresql:///shop?host=/run/pg&port=5433`) opens a PostgreSQL store with up to
    ///   `postgresPoolSize` connections; several processes may share the database.
    /// - Otherwise `path` is a SQLite file (created with its directories if needed), or
    ///   `":memory:"` for a private in-memory database. Several services (or processes) may open
    ///   one file; they never oversell. A directory it creates is 0700 and the file 0600, whatever
    ///   the umask (`SQLiteStoreFiles`).
    /// - `readOnly` (`--read-only`) opens an existing store without writing it: a SQLite file with
    ///   read-only connections, a PostgreSQL database with read-only sessions; neither is created,
    ///   seeded or migrated, and a store that is missing (or needs a migration) is an error.
    ///
    /// Callers must refuse other URI schemes themselves (see `uriScheme(of:)`).
    ///
    /// Throws only `ShopError` (`.storage`).
    public static func open(
        path: String, postgresPoolSize: Int = defaultPostgresPoolSize, creation: StoreCreation = .demoCatalog, readOnly: Bool = false
    ) throws -> ShopService {
        if let scheme = uriScheme(of: path), postgresSchemes.contains(scheme.lowercased()) {
            guard path.dropFirst(scheme.count).hasPrefix("://") else {
                // libpq would take the whole value for a database name, and might echo it (with
                // any password in it) in its error.
                throw ShopError.storage("a PostgreSQL URI starts with \(scheme.lowercased())://")
            }
            // libpq recognises a URI only by a lower-case scheme: `POSTGRES://u:pw@h/db` would be
            // taken for a database name (password included) on the local socket, or quoted whole
            // in an error. The scheme is case-insensitive (RFC 3986), so it is handed over lowered.
            let uri = scheme.lowercased() + path.dropFirst(scheme.count)
            return ShopService(store: try PostgreSQLShopStore.open(uri: uri, poolSize: postgresPoolSize, creation: creation, readOnly: readOnly))
        }
        return ShopService(store: try SQLiteShopStore.open(path: path, creation: creation, readOnly: readOnly))
    }

}
