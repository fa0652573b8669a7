import Synchronization
import SharedSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The output descriptor as seen by `OutputWriter`'s direct writes, made by a thread that must not
/// wait on the client (the reader, a read lane, the timer queue): `write` never blocks, and
/// `mayTake` says whether trying is worth it.
///
/// - a pipe (what an editor or script gives the server): written with `pwritev2(RWF_NOWAIT)`,
///   which takes what fits at once and never waits (Linux 4.14 and later, for pipes where the
///   kernel supports it); what it leaves is the caller's to hand on. Where the kernel refuses
///   the flag (`EOPNOTSUPP`), from then on a write is tried only if the pipe has room for the
///   bytes plus two pages of slack (the kernel fills a pipe in page-sized slots; a write that
///   fits in the free bytes can still need a fresh slot), asked with `FIONREAD` per write. The
///   flag saves that `ioctl` (about 0.4 µs of a catalog.get's 15 µs round trip at one in
///   flight here; bench/HISTORY.md);
/// - a regular file or `/dev/null`: always, whole (such writes never wait on a reader);
/// - anything else (a terminal, a socket): never; those replies take the writer queue.
///
/// Thread-safe: immutable after `init` but for the one-way switch away from `RWF_NOWAIT`.
struct DirectOutput: Sendable {
    private enum Kind { case pipe(capacity: Int), file }

    let fd: Int32
    private let kind: Kind
    /// Whether `pwritev2(RWF_NOWAIT)` writes to this pipe; cleared for good when it is refused.
    private let noWait: NoWaitWrites

    /// Nil if direct writes to `fd` are never safe. `writesWithoutWaiting` false: a pipe is
    /// written only after `FIONREAD` found room (what a kernel without `RWF_NOWAIT` for pipes gets).
    init?(fd: Int32, writesWithoutWaiting: Bool = true) {
        noWait = NoWaitWrites(enabled: writesWithoutWaiting)
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

    /// Whether pipe writes use `RWF_NOWAIT` (false once the kernel refused it).
    var writesWithoutWaiting: Bool { noWait.isUsable }

    /// Whether a direct write of `count` bytes should be tried now: always for a file or a pipe
    /// written with `RWF_NOWAIT` (which never blocks); for any other pipe only if it has room.
    /// Any thread.
    func mayTake(_ count: Int) -> Bool {
        switch kind {
        case .file:
            return true
        case .pipe(let capacity):
            if noWait.isUsable { return true }
            var unread: Int32 = 0
            guard ioctl(fd, UInt(FIONREAD), &unread) == 0 else { return false }
            return Int(unread) + count + 2 * 4096 <= capacity
        }
    }

    /// Writes a prefix of `bytes` without blocking and returns its length (all of them for a file,
    /// and for a pipe that `mayTake` found room in; possibly fewer, even none, for a pipe written
    /// with `RWF_NOWAIT`), or nil if the output failed (the reader went away). Any thread; the
    /// caller owns the output.
    func write(_ bytes: UnsafeRawBufferPointer) -> Int? {
        if case .pipe = kind, noWait.isUsable {
            switch noWait.write(fd, bytes) {
            case .wrote(let count): return count
            case .refused: return 0  // checked with FIONREAD from now on; the caller hands these on
            case .failed: return nil
            }
        }
        do {
            try FileDescriptorIO.writeAll(fd, bytes)
            return bytes.count
        } catch {
            return nil
        }
    }

    private static func isDevNull(_ info: stat) -> Bool {
        var null = stat()
        return stat("/dev/null", &null) == 0 && null.st_rdev == info.st_rdev
    }
}

/// `pwritev2(fd, …, RWF_NOWAIT)` on one descriptor, looked up in the C library at run time (the
/// Swift `Glibc` module does not declare it), and the switch that turns it off for good the first
/// time the kernel refuses it. Thread-safe.
final class NoWaitWrites: Sendable {
    enum Outcome {
        /// This many bytes were written (fewer than asked, or none, when the pipe is full).
        case wrote(Int)
        /// The kernel does not take `RWF_NOWAIT` here; nothing was written.
        case refused
        /// The output failed (the reader went away).
        case failed
    }

    private typealias PWriteV2 = @convention(c) (Int32, UnsafePointer<iovec>?, Int32, Int, Int32) -> Int

    private static let pwritev2: PWriteV2? = {
        #if os(Linux)
        guard let library = dlopen(nil, RTLD_NOW), let symbol = dlsym(library, "pwritev2") else { return nil }
        return unsafeBitCast(symbol, to: PWriteV2.self)
        #else
        return nil
        #endif
    }()

    /// `RWF_NOWAIT` (linux/fs.h), which Glibc's Swift module does not export either.
    private static let rwfNoWait: Int32 = 0x0000_0008

    private let usable: Atomic<Bool>

    init(enabled: Bool) {
        usable = Atomic(enabled && Self.pwritev2 != nil)
    }

    var isUsable: Bool { usable.load(ordering: .relaxed) }

    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Outcome {
        guard let pwritev2 = Self.pwritev2 else { return .refused }
        var vector = iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count)
        while true {
            let written = pwritev2(fd, &vector, 1, -1, Self.rwfNoWait)  // offset -1: the descriptor's own position, as write(2)
            if written >= 0 { return .wrote(written) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wrote(0)
            case EOPNOTSUPP, EINVAL, ENOSYS:
                usable.store(false, ordering: .relaxed)
                return .refused
            default: return .failed
            }
        }
    }
}
