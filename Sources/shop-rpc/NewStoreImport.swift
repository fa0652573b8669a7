#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ShopAPI

/// `shop-rpc import` into a SQLite store that does not exist yet: the store is built in a
/// temporary file beside it (`.NAME.import-PID-RANDOM`) and takes its name only once the import
/// has committed, so a failed import (a row error, an unknown column, a FILE that cannot be read)
/// leaves no file, no directory and no schema behind, and a server started later on that path
/// still creates the demo catalog. The name is taken with `link(2)`, which never replaces: a store
/// another process (a server) created there meanwhile is left as it is, and the import fails.
///
/// A process killed mid-import leaves its temporary file (never the store's name) behind.
enum NewStoreImport {
    /// Runs `body` on a new, empty store and puts it at `location` if the import committed.
    /// - Throws: `ShopError` when the store cannot be created or moved into place, or whatever
    ///   `body` throws; nothing is left at `location` then.
    static func run(at location: String, _ body: (ShopService) throws -> CatalogImportOutcome) throws -> CatalogImportOutcome {
        let createdDirectories = try SQLiteStoreFiles.createParentDirectories(of: location)
        let temporary = temporaryPath(beside: location)
        var published = false
        defer {
            if !published {
                SQLiteStoreFiles.removeDatabase(temporary)
                SQLiteStoreFiles.removeDirectories(createdDirectories)
            }
        }
        let outcome = try importAndClose(temporary, body)
        guard outcome.committed else { return outcome }
        guard !SQLiteStoreFiles.hasUncheckpointedWAL(temporary) else {
            throw ShopError.storage("the new store was not closed completely, so it was not put in place")
        }
        guard try SQLiteStoreFiles.moveIntoPlace(temporary, as: location) else {
            throw ShopError.storage("a store was created at \(location) while the import ran (by a server?); import the file again to import into it")
        }
        published = true
        return outcome
    }

    /// Opens the store at `path` (new, so empty), runs `body`, and lets the store go, which closes
    /// its connections: SQLite then checkpoints the WAL into the file and removes it.
    private static func importAndClose(_ path: String, _ body: (ShopService) throws -> CatalogImportOutcome) throws -> CatalogImportOutcome {
        let service = try ShopService.open(path: path, creation: .importedFile)
        return try body(service)
    }

    /// `DIR/.NAME.import-PID-RANDOM` for `DIR/NAME`: the same directory, so the same file system.
    private static func temporaryPath(beside location: String) -> String {
        let slash = location.lastIndex(of: "/")
        let directory = slash.map { String(location[...$0]) } ?? ""
        let name = slash.map { String(location[location.index(after: $0)...]) } ?? location
        return directory + ".\(name).import-\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
    }
}
