import Dispatch

/// Mutable state that belongs to one serial dispatch queue: every read and write checks, with
/// `dispatchPrecondition`, that it happens on that queue, so a wrong-queue access traps at the
/// access instead of racing silently. Replaces a `nonisolated(unsafe) var` under a comment.
///
/// `@unchecked Sendable`: `value` is touched only on `queue`, which each access asserts.
final class QueueBound<Value>: @unchecked Sendable {
    /// The serial queue that owns the value.
    let queue: DispatchQueue
    private var storage: Value

    init(_ value: Value, queue: DispatchQueue) {
        self.queue = queue
        storage = value
    }

    /// The value. - Important: read and write it on `queue` only.
    var value: Value {
        get {
            dispatchPrecondition(condition: .onQueue(queue))
            return storage
        }
        _modify {
            dispatchPrecondition(condition: .onQueue(queue))
            yield &storage
        }
    }
}
