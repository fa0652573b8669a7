import Dispatch

/// Where a connection's outgoing messages go: `deliver` is always called on `queue` (the caller's
/// injected callback queue; the stdio transport passes its writer queue), once per reply or
/// notification body (unframed JSON).
public struct ReplyChannel: Sendable {
    public let queue: DispatchQueue
    public let deliver: @Sendable ([UInt8]) -> Void
    /// Called synchronously with each body's size as it is sent (for back-pressure accounting).
    let onSend: (@Sendable (Int) -> Void)?

    public init(queue: DispatchQueue, deliver: @escaping @Sendable ([UInt8]) -> Void) {
        self.init(queue: queue, onSend: nil, deliver: deliver)
    }

    init(queue: DispatchQueue, onSend: (@Sendable (Int) -> Void)?, deliver: @escaping @Sendable ([UInt8]) -> Void) {
        self.queue = queue
        self.onSend = onSend
        self.deliver = deliver
    }

    /// Hands `body` to `deliver` on `queue`, asynchronously. Bodies sent from one thread arrive in order.
    func send(_ body: [UInt8]) {
        onSend?(body.count)
        queue.async { self.deliver(body) }
    }
}
