import Dispatch
import FoundationEssentials

// MARK: - ShopService

/// The shop: catalog, inventory, carts and orders, with their rules, over a `ShopStore`.
///
/// - Thread-safe: every method may be called from any thread, concurrently.
/// - Reads are synchronous and run on the caller's thread on a pooled read connection; each sees
///   one consistent snapshot, including every write whose completion has already been called.
/// - Writes take a completion, called **exactly once, on `callbackQueue`**, after the change is
///   durable. Writes submitted concurrently are grouped by one writer into one transaction (one
///   fsync), each in its own savepoint, so one failing write never undoes another.
/// - Only `ShopError` is ever thrown or delivered.
public final class ShopService: Sendable {
    let store: any ShopStore
    /// The clock that stamps new orders.
    let now: @Sendable () -> Date
    /// Makes the id of a new order.
    let makeOrderId: @Sendable () -> String

    init(
        store: any ShopStore,
        now: @escaping @Sendable () -> Date = { Date() },
        makeOrderId: @escaping @Sendable () -> String = OrderStamp.randomOrderId
    ) {
        self.store = store
        self.now = now
        self.makeOrderId = makeOrderId
    }

    // MARK: - Opening

    /// `$XDG_DATA_HOME/shop-rpc/shop.sqlite`, else `~/.local/share/shop-rpc/shop.sqlite`.
    public static var defaultDatabasePath: String {
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

    /// Opens the store at `path`, migrates its schema, and seeds the demo catalog the first time.
    ///
    /// - A `postgres://` or `postgresql://` URI (anything libpq accepts, e.g.
    ///   `postgresql:///shop?host=/run/pg&port=5433`) opens a PostgreSQL store with up to
    ///   `postgresPoolSize` connections; several processes may share the database.
    /// - Otherwise `path` is a SQLite file (created with its directories if needed), or
    ///   `":memory:"` for a private in-memory database. Several services (or processes) may open
    ///   one file; they never oversell.
    ///
    /// Callers must refuse other URI schemes themselves (see `uriScheme(of:)`).
    ///
    /// Throws only `ShopError` (`.storage`).
    public static func open(path: String, postgresPoolSize: Int = defaultPostgresPoolSize) throws -> ShopService {
        if let scheme = uriScheme(of: path), postgresSchemes.contains(scheme.lowercased()) {
            guard path.dropFirst(scheme.count).hasPrefix("://") else {
                // libpq would take the whole value for a database name, and might echo it (with
                // any password in it) in its error.
                throw ShopError.storage("a PostgreSQL URI starts with \(scheme.lowercased())://")
            }
            return ShopService(store: try PostgreSQLShopStore.open(uri: path, poolSize: postgresPoolSize))
        }
        return ShopService(store: try SQLiteShopStore.open(path: path))
    }

    // MARK: - Statistics

    /// Write transactions committed and write operations run in them since opening. Under
    /// concurrent writes `operations > transactions`: several operations share one fsync.
    public var stats: (transactions: Int, operations: Int) {
        store.stats
    }

    /// How many reads can run at once without waiting for each other. A caller that runs reads
    /// on its own threads gains nothing from running more at once than this.
    public var readConcurrency: Int {
        store.readConcurrency
    }

    /// Whether the store's reads are local (SQLite) rather than over a network (PostgreSQL).
    var readsAreLocal: Bool {
        store.readsAreLocal
    }

    // MARK: - Helpers for the rules

    /// `limit` clamped to `1...maximum`; below 1 means `ShopLimits.defaultPageSize`.
    static func pageSize(_ limit: Int, maximum: Int = ShopLimits.maxPageSize) -> Int {
        limit < 1 ? min(ShopLimits.defaultPageSize, maximum) : min(limit, maximum)
    }

    /// Delivers a result that needs no store work, keeping the exactly-once, on-`queue` promise.
    static func deliver<T: Sendable>(
        _ result: Result<T, ShopError>,
        on queue: DispatchQueue,
        to completion: @escaping @Sendable (Result<T, ShopError>) -> Void
    ) {
        queue.async { completion(result) }
    }
}
