#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A detached POSIX thread that runs one closure and ends. It is the part of Foundation's `Thread`
/// the engine needs (the stdin thread), without Foundation; the engine imports only the C library,
/// Dispatch and FoundationEssentials, which keeps a statically linked server small.
///
/// Nothing waits for the thread: a caller that must know when `body` has returned signals that
/// itself (the stdin reader leaves a `DispatchGroup`).
enum DetachedThread {
    /// Starts `body` on a new thread. Returns false, without running `body`, when no thread can be
    /// made (the process is out of threads or memory).
    ///
    /// The thread is not named: Swift's Glibc module does not export `pthread_setname_np` (a GNU
    /// extension), and `prctl`, which could, is variadic and so cannot be called from Swift.
    @discardableResult
    static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let payload = Unmanaged.passRetained(Payload(body: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        guard pthread_create(&thread, &attributes, runPayload, payload) == 0 else {
            Unmanaged<Payload>.fromOpaque(payload).release()
            return false
        }
        return true
    }

    private final class Payload {
        let body: @Sendable () -> Void
        init(body: @escaping @Sendable () -> Void) {
            self.body = body
        }
    }

    private static let runPayload: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { raw in
        let payload = Unmanaged<Payload>.fromOpaque(raw!).takeRetainedValue()
        payload.body()
        return nil
    }
}
