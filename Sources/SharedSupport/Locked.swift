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
/// reports are about real races only. Uncontended, it costs about what `Mutex` does. The mutex and
/// the value live in one allocation (`LockedStorage`, a `ManagedBuffer`), reached through
/// pointers, so an access costs no dynamic exclusivity check (a class's stored `var` would: about
/// 80 instructions a lock on the hot path) and creating one costs one allocation, not three: every
/// call's cancellation token has one.
///
/// On glibc the mutex is adaptive (`PTHREAD_MUTEX_ADAPTIVE_NP`): a thread that finds it held spins
/// briefly before sleeping in the kernel. Every critical section here is a few hundred
/// instructions at most, so the holder, if it is running, lets go within the spin; a plain mutex
/// puts the waiter to sleep and wakes it with a second syscall and two context switches. Measured
/// on pipelined catalog.get (bench/HISTORY.md, "fourth pass"): about a fifth more requests a second.
///
/// `withLock` is inlined into each caller, specialised for its value and closure, so a lock costs
/// the two pthread calls and little else. That is why this type is `public` (SharedSupport is no
/// product, so it is still only the package's): without library evolution, an `@inlinable`
/// `package` body is not made available to other modules, and every lock was an unspecialised
/// generic call (about 3 k of a catalog.get's 45 k instructions at one in flight; a typed
/// `throws(Failure)` keeps it from being specialised even within this module).
/// `body` cannot throw (a `rethrows` version cost 300 instructions more per catalog.get): decide
/// under the lock, throw after it.
public struct Locked<Value>: @unchecked Sendable {  // the value is only touched inside withLock, under the mutex
    @usableFromInline let storage: LockedStorage<Value>

    @inlinable
    public init(_ value: Value) {
        storage = LockedStorage.make(value)
    }

    /// Runs `body` with the value while holding the lock. Not reentrant: `body` must not take
    /// this lock again. Inlined (see above).
    @inlinable
    public func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        storage.withLock(body)
    }
}

/// One allocation holding a `Locked`'s mutex (the header) and its value (the one element, after
/// the mutex, so even an empty value never shares the mutex's address).
@usableFromInline
final class LockedStorage<Value>: ManagedBuffer<pthread_mutex_t, Value> {
    @inlinable
    static func make(_ value: Value) -> LockedStorage<Value> {
        let storage = unsafeDowncast(create(minimumCapacity: 1) { _ in pthread_mutex_t() }, to: LockedStorage<Value>.self)
        storage.withUnsafeMutablePointers { mutex, slot in
            var attributes = mutexAttributes
            pthread_mutex_init(mutex, &attributes)
            slot.initialize(to: value)
        }
        return storage
    }

    deinit {
        // The header (the mutex's bytes) is released by ManagedBuffer; the mutex and the value are ours to end.
        withUnsafeMutablePointers { mutex, slot in
            slot.deinitialize(count: 1)
            pthread_mutex_destroy(mutex)
        }
    }

    @inlinable @inline(__always)
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        withUnsafeMutablePointers { mutex, value in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return body(&value.pointee)
        }
    }
}

/// The attributes of every `Locked` mutex, set up once: adaptive where glibc offers it, the
/// default elsewhere.
@usableFromInline
let mutexAttributes: pthread_mutexattr_t = {
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    #if canImport(Glibc)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
    #endif
    return attributes
}()
