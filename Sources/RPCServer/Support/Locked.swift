#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a `pthread_mutex_t`: `withLock` is the only way to it. Thread-safe.
///
/// Used instead of `Synchronization.Mutex`, whose lock on Linux lives in an uninstrumented
/// library: ThreadSanitizer cannot see it, so it reports every access a `Mutex` guards as a race,
/// and real races would drown in them. TSan intercepts pthread mutexes, so with this lock its
/// reports are about real races only. Uncontended, it costs about what `Mutex` does; the value
/// lives behind a pointer, so an access costs no dynamic exclusivity check (a class's stored `var`
/// would: about 80 instructions a lock on the hot path).
///
/// `@unchecked Sendable`: `value` is only touched inside `withLock`, while `mutex` is held.
package final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let value: UnsafeMutablePointer<Value>

    package init(_ value: Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value while holding the lock. Not reentrant: `body` must not take
    /// this lock again.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}
