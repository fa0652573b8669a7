#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a `pthread_mutex_t`: `withLock` is the only way to it. Thread-safe; copies
/// share one lock and one value (it is a reference to them).
///
/// Used instead of `Synchronization.Mutex`, whose lock on Linux lives in an uninstrumented
/// library: ThreadSanitizer cannot see it, so it reports every access a `Mutex` guards as a race,
/// and real races would drown in them. TSan intercepts pthread mutexes, so with this lock its
/// reports are about real races only. Uncontended, it costs about what `Mutex` does. The value and
/// the mutex live in one allocation (`LockedStorage`, a `ManagedBuffer`), reached through
/// pointers, so an access costs no dynamic exclusivity check (a class's stored `var` would: about
/// 80 instructions a lock on the hot path) and creating one costs one allocation, not three: every
/// call's cancellation token has one.
package struct Locked<Value>: @unchecked Sendable {  // the value is only touched inside withLock, under the mutex
    private let storage: LockedStorage<Value>

    package init(_ value: Value) {
        storage = LockedStorage.make(value)
    }

    /// Runs `body` with the value while holding the lock. Not reentrant: `body` must not take
    /// this lock again.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        try storage.withLock(body)
    }
}

/// One allocation holding a `Locked`'s value (the header) and its mutex (the one element).
private final class LockedStorage<Value>: ManagedBuffer<Value, pthread_mutex_t> {
    static func make(_ value: Value) -> LockedStorage<Value> {
        let storage = unsafeDowncast(create(minimumCapacity: 1) { _ in value }, to: LockedStorage<Value>.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
        }
        return storage
    }

    deinit {
        // The header (the value) is destroyed by ManagedBuffer; the element is ours to end.
        withUnsafeMutablePointerToElements { mutex in
            pthread_mutex_destroy(mutex)
            mutex.deinitialize(count: 1)
        }
    }

    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        try withUnsafeMutablePointers { (value, mutex) throws(Failure) -> Result in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }
}
