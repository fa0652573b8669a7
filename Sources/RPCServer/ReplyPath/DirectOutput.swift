#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The output descriptor as seen by `OutputWriter`'s direct writes: says whether a `write` of some
/// bytes can complete without blocking, so a thread that must not wait on the client (the reader,
/// a read lane, the timer queue) writes a reply itself only when the kernel will take it at once.
///
/// - a pipe (what an editor or script gives the server): only if its buffer has room for the
///   bytes plus two pages of slack (the kernel fills a pipe in page-sized slots; a write that
///   fits in the free bytes can still need a fresh slot), asked with `FIONREAD` per write;
/// - a regular file or `/dev/null`: always (such writes never wait on a reader);
/// - anything else (a terminal, a socket): never; those replies take the writer queue.
///
/// Immutable after `init`; thread-safe.
struct DirectOutput: Sendable {
    private enum Kind { case pipe(capacity: Int), file }

    let fd: Int32
    private let kind: Kind

    /// Nil if direct writes to `fd` are never safe.
    init?(fd: Int32) {
        #if os(Linux)
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let type = info.st_mode & S_IFMT
        if type == S_IFIFO {
            let getPipeSize: Int32 = 1032  // F_GETPIPE_SZ, not exported to Swift by Glibc
            let capacity = Int(fcntl(fd, getPipeSize))
            guard capacity > 0 else { return nil }
            kind = .pipe(capacity: capacity)
        } else if type == S_IFREG || (type == S_IFCHR && Self.isDevNull(info)) {
            kind = .file
        } else {
            return nil
        }
        self.fd = fd
        #else
        return nil
        #endif
    }

    /// Whether writing `count` bytes now cannot block. Any thread.
    func hasRoom(for count: Int) -> Bool {
        switch kind {
        case .file:
            return true
        case .pipe(let capacity):
            var unread: Int32 = 0
            guard ioctl(fd, UInt(FIONREAD), &unread) == 0 else { return false }
            return Int(unread) + count + 2 * 4096 <= capacity
        }
    }

    private static func isDevNull(_ info: stat) -> Bool {
        var null = stat()
        return stat("/dev/null", &null) == 0 && null.st_rdev == info.st_rdev
    }
}
