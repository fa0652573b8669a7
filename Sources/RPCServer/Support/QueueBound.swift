import Dispatch

/// Mutable state that belongs to one serial dispatch queue: every read and write checks, with
/// `dispatchPrecondition`, that it happens on that queue, so a wrong-queue access traps at the
/// access instead of racing silently. Replaces a `nonisolated(unsafe) var` under a comment.
///
/// The check runs in debug builds (every test run, TSan's included); release builds skip it, as
/// they skip `assert`: it cost about 170 instructions an access on the reader's hot path, where
/// the functions that touch the state already check their queue on entry. The value lives behind
/// a pointer, so an access costs no dynamic exclusivity check either (measured with
/// `bench/instructions`: together about 1 000 instructions per request).
///
/// `@unchecked Sendable`: `value` is touched only on `queue`, which each access asserts.
final class QueueBound<Value>: @unchecked Sendable {
    /// The serial queue that owns the value.
    let queue: DispatchQueue
    private let storage: UnsafeMutablePointer<Value>

    init(_ value: Value, queue: DispatchQueue) {
        self.queue = queue
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// The value. - Important: read and write it on `queue` only.
    var value: Value {
        get {
            checkQueue()
            return storage.pointee
        }
        _modify {
            checkQueue()
            yield &storage.pointee
        }
    }

    @inline(__always)
    private func checkQueue() {
        debugCheckOnQueue(queue)
    }
}
