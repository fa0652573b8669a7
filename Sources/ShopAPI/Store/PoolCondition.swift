#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex with one condition variable: `lock`, `unlock`, `wait`, `signal`, `broadcast`, as
/// POSIX defines them (the part of Foundation's `NSCondition` that `ConnectionPool` uses, without
/// Foundation, so a statically linked server stays small).
///
/// Thread-safe. `wait`, `signal` and `broadcast` must be called with the lock held; `wait` releases
/// it while blocked and holds it again when it returns, which may be spurious: wait in a loop that
/// checks the predicate. ThreadSanitizer understands pthread mutexes and condition variables.
final class PoolCondition: @unchecked Sendable {  // the pthread objects are only used through their own calls
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    /// Releases the lock until signalled (or spuriously woken), then holds it again.
    func wait() { pthread_cond_wait(condition, mutex) }
    /// Wakes one waiter, if any.
    func signal() { pthread_cond_signal(condition) }
    /// Wakes every waiter.
    func broadcast() { pthread_cond_broadcast(condition) }
}
