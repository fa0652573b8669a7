#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-shot permission, held by one thread for the length of one closure, to start a handler
/// on that thread instead of handing it to a queue.
///
/// The connection grants it on the reader queue while it hands the engine a single request that
/// is the last complete frame of a chunk read when the input was idle, with no call in flight:
/// nothing else is waiting to be read or running, so a short synchronous start there delays no
/// other request. An executor that can
/// start work inline safely (`ShopAPI`'s read lanes, when every lane is idle) `take`s it; every
/// other executor ignores it and hands the work on as before. Taking clears it, so at most one
/// start per grant runs inline, and nothing nested inside that start sees it.
///
/// Thread-confined: the permission lives in a thread-specific slot of the granting thread, so
/// other threads never see it. Any thread may call `take` (false unless it holds the grant).
package enum InlineStart {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed: \(status)")  // only if the process is out of keys, at start-up
        return key
    }()

    /// Any non-nil value marks the slot; it is never dereferenced.
    private static var granted: UnsafeRawPointer { UnsafeRawPointer(bitPattern: 1)! }

    /// Runs `body` with the permission granted to this thread; it is withdrawn afterwards whether
    /// or not something took it.
    package static func granting<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_setspecific(key, granted)
        defer { pthread_setspecific(key, nil) }
        return try body()
    }

    /// True (once) if this thread holds the permission; taking it withdraws it.
    package static func take() -> Bool {
        guard pthread_getspecific(key) != nil else { return false }
        pthread_setspecific(key, nil)
        return true
    }
}
