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
    /// The stdio writer behind this channel, if it is one: then a call's reply may be written by
    /// the thread that settled it (`sendWritingIfIdle`).
    private let writer: OutputWriter?

    /// `deliver` is called on `queue`, once per body, in order.
    package init(queue: DispatchQueue, deliver: @escaping @Sendable ([UInt8]) -> Void) {
        sink = { body in queue.async { deliver(body) } }
        writer = nil
    }

    /// `sink` is called on the sending thread and must be thread-safe.
    package init(sink: @escaping @Sendable ([UInt8]) -> Void) {
        self.sink = sink
        writer = nil
    }

    /// Bodies go to `writer.submit`, or straight out through `sendWritingIfIdle`.
    init(writer: OutputWriter) {
        sink = { body in writer.submit(body) }
        self.writer = writer
    }

    func send(_ body: [UInt8]) {
        sink(body)
    }

    /// Sends `body`; if the channel is the stdio writer and it is idle, returns the write for the
    /// caller to make itself (`perform()`) once it has released its locks. The body's place in the
    /// output is fixed here, as with `send`. Any thread.
    func sendWritingIfIdle(_ body: [UInt8]) -> OutputWriter.DirectWrite? {
        guard let writer else {
            sink(body)
            return nil
        }
        return writer.submitWritingIfIdle(body)
    }
}
