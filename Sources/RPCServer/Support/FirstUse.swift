import Synchronization
import SharedSupport

/// A value computed the first time it is asked for, then read without a lock. Thread-safe: racing
/// first uses compute it once (under a lock); every later read is one acquiring load.
///
/// For answers that are fixed for the life of the process but too costly to compute before they
/// are needed (say, a protocol conformance the runtime has not cached yet).
final class FirstUse<Value: Sendable>: Sendable {
    private let compute: @Sendable () -> Value
    private let isComputed = Atomic<Bool>(false)
    /// Written once, under `computing`, before `isComputed` is set (releasing); read only after
    /// `isComputed` was seen set (acquiring), so every read sees the write.
    private nonisolated(unsafe) let slot: UnsafeMutablePointer<Value>
    private let computing = Locked(())

    init(_ compute: @escaping @Sendable () -> Value) {
        self.compute = compute
        slot = .allocate(capacity: 1)
    }

    deinit {
        if isComputed.load(ordering: .acquiring) { slot.deinitialize(count: 1) }
        slot.deallocate()
    }

    var value: Value {
        if isComputed.load(ordering: .acquiring) { return slot.pointee }
        return computing.withLock { _ in
            if !isComputed.load(ordering: .acquiring) {
                slot.initialize(to: compute())
                isComputed.store(true, ordering: .releasing)
            }
            return slot.pointee
        }
    }
}
