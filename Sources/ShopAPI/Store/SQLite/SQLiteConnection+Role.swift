import CSQLite

// MARK: - Roles

extension SQLiteConnection {
    /// What a connection is for, which decides how it is opened and configured.
    enum Role {
        /// The one connection that writes a database file: WAL, `synchronous=FULL` (a commit is
        /// on disk before it returns, so a kill -9 after a completion loses nothing), and a WAL
        /// file cut back to `walSizeLimitBytes` when it is reused after a complete checkpoint (an
        /// import's transaction grows it to the size of the whole change).
        case writer
        /// A pooled reader of a database file: `query_only`, so it can never write.
        case reader
        /// The single connection of an in-memory database, shared by reads and writes.
        case inMemory
        /// Any connection of a store opened `--read-only`: `SQLITE_OPEN_READONLY`, so neither this
        /// connection nor SQLite on its behalf writes the database file, and it is never created.
        ///
        /// Chosen over a read-write connection with `PRAGMA query_only`: the read-only open reads
        /// a WAL database whether its `-wal` and `-shm` exist (SQLite reads the WAL and uses the
        /// `-shm`, also when another process writes), or only the `-wal` (SQLite builds the `-shm`
        /// beside it), or neither (after a clean close), all tried on SQLite 3.40. The one case it
        /// cannot open, no `-shm` in a directory it may not write, a read-write open cannot either
        /// (SQLite must create the `-shm`), and `immutable=1`, which could, would ignore the WAL and
        /// read stale data. `query_only` stays on too, so a write is refused before SQLite is asked.
        case readOnly
    }

    /// The size a writer cuts the WAL file back to when it starts it again (64 MiB).
    static let walSizeLimitBytes = 64 << 20

    /// Opens `path` for `role` and applies the role's settings (plus, for all: `busy_timeout`,
    /// foreign keys on).
    static func open(path: String, as role: Role) throws(SQLiteError) -> SQLiteConnection {
        let flags = switch role {
        case .writer, .inMemory: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .reader: SQLITE_OPEN_READWRITE
        case .readOnly: SQLITE_OPEN_READONLY
        }
        let connection = try SQLiteConnection(path: path, flags: flags)
        try connection.execute("PRAGMA busy_timeout = \(busyTimeoutMilliseconds); PRAGMA foreign_keys = ON;")
        switch role {
        case .writer:
            try connection.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA journal_size_limit = \(walSizeLimitBytes);")
        case .reader, .readOnly: try connection.execute("PRAGMA query_only = ON;")
        case .inMemory: break
        }
        return connection
    }
}
