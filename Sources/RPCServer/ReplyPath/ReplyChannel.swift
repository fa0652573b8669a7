import Dispatch

/// Where a connection's outgoing bodies (replies and notifications, unframed JSON) go. `send` may
/// be called from any thread; bodies sent one after another (from one thread, or ordered by a
/// lock) arrive in that order.
///
/// Two forms: a callback delivered on a queue the caller injects (`init(queue:deliver:)`, for
/// in-process use: `deliver` always runs on `queue`), or a thread-safe sink that takes bodies
/// directly (the stdio writer, which frames them into its buffer and wakes its queue only when
/// that buffer was empty).
package struct ReplyChannel: Sendable {
    private let sink: @Sendable ([UInt8]) -> Void

    /// `deliver` is called on `queue`, once per body, in order.
    package init(queue: DispatchQueue, deliver: @escaping @Sendable ([UInt8]) -> Void) {
        sink = { body in queue.async { deliver(body) } }
    }

    /// `sink` is called on the sending thread and must be thread-safe.
    package init(sink: @escaping @Sendable ([UInt8]) -> Void) {
        self.sink = sink
    }

    func send(_ body: [UInt8]) {
        sink(body)
    }
}
