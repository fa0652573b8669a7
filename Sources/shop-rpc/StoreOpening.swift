#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ShopAPI

/// Opening the store `--db` names, for every command: the default path when absent, a URI scheme
/// that is not a store refused (a usage error, exit 2), a store that cannot be opened reported
/// (exit 1).
enum StoreOpening {
    /// `--db`'s value, or the default store's path.
    static func location(_ value: String?) -> String {
        value ?? ShopService.defaultDatabasePath
    }

    /// Whether `location` is a SQLite file path (not `:memory:`, not a URI).
    static func isSQLiteFile(_ location: String) -> Bool {
        location != ":memory:" && ShopService.uriScheme(of: location) == nil
    }

    /// The store at `location`, opened (created as `creation` says if new; with `readOnly`, an
    /// existing store only, never written: `ShopService.open`).
    /// - Throws: `CommandFailure`, status 2 for a URI scheme that is not a store, 1 when the store
    ///   cannot be opened; its message never holds a password or the URI (`failure`).
    static func open(
        _ location: String, creation: StoreCreation, readOnly: Bool = false, postgresPoolSize: Int = ShopService.defaultPostgresPoolSize
    ) throws(CommandFailure) -> ShopService {
        if let scheme = ShopService.uriScheme(of: location), !ShopService.postgresSchemes.contains(scheme.lowercased()) {
            // A URI is not a file name: taken as one it would create a directory named "postgres:" and a
            // private store, and several machines would oversell without a warning.
            throw failure(location, "--db: '\(scheme)://' stores are not supported; give a SQLite file path, :memory: or a postgres:// URI", status: 2)
        }
        do {
            return try ShopService.open(path: location, postgresPoolSize: postgresPoolSize, creation: creation, readOnly: readOnly)
        } catch {
            throw failure(location, "cannot open the \(description(of: location)): \(reason(error))", status: 1)
        }
    }

    /// "store at PATH", or "postgres:// store" (a URI may hold a password).
    static func description(of location: String) -> String {
        ShopService.uriScheme(of: location).map { "\($0.lowercased()):// store" } ?? "store at \(location)"
    }

    /// Why the store failed, for the operator: a storage error's own words (which a client never
    /// sees), not the enum's spelling.
    static func reason(_ error: any Error) -> String {
        switch error as? ShopError {
        case let .storage(detail)?: detail
        case let .storeUnreachable(retryInMilliseconds, lastFailure)?:
            "\(lastFailure) (the database is unreachable; the next attempt is in \(retryInMilliseconds) ms)"
        default: "\(error)"
        }
    }

    /// A `CommandFailure` about the store `location` names: the message passes through
    /// `ConnectionStringRedaction` first, so neither a URI's password nor the URI is printed,
    /// whatever the message quotes.
    static func failure(_ location: String, _ message: String, status: Int32) -> CommandFailure {
        CommandFailure(status: status, message: ConnectionStringRedaction(connectionString: location).redact(message))
    }

    /// Whether a file exists at `path`.
    static func fileExists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }
}
