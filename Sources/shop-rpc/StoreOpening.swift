#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ShopAPI

/// Opening the store `--db` names, for every command: the default path when absent, a URI scheme
/// that is not a store refused (exit 2), a store that cannot be opened reported (exit 1).
enum StoreOpening {
    /// `--db`'s value, or the default store's path.
    static func location(_ value: String?) -> String {
        value ?? ShopService.defaultDatabasePath
    }

    /// Whether `location` is a SQLite file path (not `:memory:`, not a URI).
    static func isSQLiteFile(_ location: String) -> Bool {
        location != ":memory:" && ShopService.uriScheme(of: location) == nil
    }

    /// The store at `location`, opened (created as `creation` says if new); exits 2 for a URI
    /// scheme that is not a store, 1 when the store cannot be opened.
    static func open(_ location: String, creation: StoreCreation, postgresPoolSize: Int = ShopService.defaultPostgresPoolSize) -> ShopService {
        if let scheme = ShopService.uriScheme(of: location), !ShopService.postgresSchemes.contains(scheme.lowercased()) {
            // A URI is not a file name: taken as one it would create a directory named "postgres:" and a
            // private store, and several machines would oversell without a warning.
            exitWithMessage("--db \(location): '\(scheme)://' stores are not supported; give a SQLite file path, :memory: or a postgres:// URI", status: 2)
        }
        do {
            return try ShopService.open(path: location, postgresPoolSize: postgresPoolSize, creation: creation)
        } catch {
            // The URI may hold a password: name the store by its scheme only.
            exitWithMessage("cannot open the \(description(of: location)): \(error)", status: 1)
        }
    }

    /// "store at PATH", or "postgres:// store" (a URI may hold a password).
    static func description(of location: String) -> String {
        ShopService.uriScheme(of: location).map { "\($0):// store" } ?? "store at \(location)"
    }

    /// Whether a file exists at `path`.
    static func fileExists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }
}
