import CSQLite

/// A Swift value that can fill a `?` parameter of a prepared statement.
protocol SQLiteBindable {
    /// Binds `self` at 1-based `index`; returns SQLite's result code.
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32
}

/// Tells SQLite to copy bound bytes before the bind call returns (C's `SQLITE_TRANSIENT`).
private var transientDestructor: sqlite3_destructor_type {
    unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

// MARK: - Conformances

extension Int: SQLiteBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, Int64(self))
    }
}

extension Int64: SQLiteBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, self)
    }
}

extension String: SQLiteBindable {
    /// Binds the exact UTF-8 bytes (embedded NULs included); SQLite copies them. The length goes
    /// as 64 bits (`sqlite3_bind_text64`): a client's text is only bounded by the message size,
    /// which `--max-message-bytes` may set past 2 GiB, where `Int32(count)` would trap; SQLite
    /// answers SQLITE_TOOBIG for text past its own limit instead.
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        var text = self
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_text(statement, index, "", 0, transientDestructor)
            }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text64(statement, index, $0, sqlite3_uint64(bytes.count), transientDestructor, UInt8(SQLITE_UTF8))
            }
        }
    }
}

extension Optional: SQLiteBindable where Wrapped: SQLiteBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch self {
        case .none: sqlite3_bind_null(statement, index)
        case let .some(value): value.bind(to: statement, at: index)
        }
    }
}
