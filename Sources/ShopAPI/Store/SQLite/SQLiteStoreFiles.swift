#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The files of a SQLite store on disk, private to their owner whatever the umask: a directory the
/// shop creates is 0700, a database file 0600, and so are SQLite's `-wal` and `-shm`, which SQLite
/// creates with the database file's permissions. What exists already keeps its mode: the operator
/// chose it.
package enum SQLiteStoreFiles {
    /// Creates the directories missing above `path` (a database file's path), each 0700; returns
    /// those it created, outermost first (so a failed import can take them away again).
    /// - Throws: `ShopError.storage` naming the directory that could not be created.
    package static func createParentDirectories(of path: String) throws(ShopError) -> [String] {
        var created: [String] = []
        let components = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        var prefix = ""
        for (index, component) in components.enumerated() {
            prefix += (index == 0 ? "" : "/") + component
            guard !component.isEmpty, component != ".", component != ".." else { continue }
            if mkdir(prefix, 0o700) == 0 {
                // The umask may have taken bits away: exactly 0700, usable by its owner.
                _ = chmod(prefix, 0o700)
                created.append(prefix)
            } else if errno != EEXIST {
                throw ShopError.storage("cannot create the directory \(prefix): \(String(cString: strerror(errno)))")
            }
        }
        return created
    }

    /// Creates `path` empty with mode 0600 unless something is there already (an empty file is an
    /// empty SQLite database, and SQLite gives the `-wal` and `-shm` it creates beside it the
    /// same mode). Returns whether it created the file. Several processes may race here: one
    /// creates it, the others find it.
    /// - Throws: `ShopError.storage` when nothing is at `path` and it cannot be created.
    @discardableResult
    package static func createPrivateDatabaseFile(_ path: String) throws(ShopError) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            if errno == EEXIST { return false }
            throw ShopError.storage("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        _ = fchmod(fd, 0o600)
        _ = close(fd)
        return true
    }

    /// Removes the database file `path` and what SQLite keeps beside it (`-wal`, `-shm`,
    /// `-journal`); whatever is not there is no error.
    package static func removeDatabase(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            _ = unlink(path + suffix)
        }
    }

    /// Removes the directories `createParentDirectories` created, innermost first, each only if
    /// it is empty (another process may have put a store there meanwhile).
    package static func removeDirectories(_ created: [String]) {
        for directory in created.reversed() {
            _ = rmdir(directory)
        }
    }

    /// Gives the database `temporary`, closed and beside `path` (same directory, so same file
    /// system), the name `path` and takes its old name away, unless something is at `path` already:
    /// `link(2)` never replaces, so a store another process created meanwhile is left alone (and
    /// false returned). The directory is synced, so the new name survives a power cut.
    /// - Throws: `ShopError.storage` when the link fails for another reason.
    package static func moveIntoPlace(_ temporary: String, as path: String) throws(ShopError) -> Bool {
        guard link(temporary, path) == 0 else {
            if errno == EEXIST { return false }
            throw ShopError.storage("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        removeDatabase(temporary)
        let directory = path.lastIndex(of: "/").map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            _ = fsync(fd)
            _ = close(fd)
        }
        return true
    }

    /// Whether SQLite left a WAL with content beside `path`: the database is still open somewhere,
    /// or was not checkpointed when it closed, so the file alone does not hold all of it.
    package static func hasUncheckpointedWAL(_ path: String) -> Bool {
        var status = stat()
        return lstat(path + "-wal", &status) == 0 && status.st_size > 0
    }

    /// Whether anything (a file, a directory, a link) is at `path`.
    package static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }
}
