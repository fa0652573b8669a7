import Dispatch
import Synchronization

/// The one serial writer of the protocol stream. Bodies are framed and appended to a pending
/// buffer on the **writer queue**; a flush scheduled behind them writes everything pending in one
/// `write`, so under load many frames coalesce into one syscall and two frames can never
/// interleave. Tracks the bytes handed to it but not yet written (`backlogBytes`) so the reader
/// can stop reading when a client does not read its replies. Thread-safe via its queue.
public final class OutputWriter: Sendable {
    public let queue: DispatchQueue
    private let output: any ByteOutput
    private let tracer: Tracer?
    private let onClosed: @Sendable () -> Void
    private let framing = Mutex<Framing?>(nil)
    private let backlog = Atomic<Int>(0)
    private let backlogWaiters = Mutex<[@Sendable () -> Void]>([])
    public let maxBacklogBytes: Int

    // Writer-queue state.
    private nonisolated(unsafe) var pending: [UInt8] = []
    private nonisolated(unsafe) var pendingBodyBytes = 0
    private nonisolated(unsafe) var flushScheduled = false
    private nonisolated(unsafe) var closed = false

    /// `onClosed` runs once, on the writer queue, if the output fails (the reader went away).
    public init(output: any ByteOutput, tracer: Tracer? = nil, maxBacklogBytes: Int = 32 * 1024 * 1024,
                onClosed: @escaping @Sendable () -> Void) {
        queue = DispatchQueue(label: "RPCServer.writer", qos: .userInitiated)
        self.output = output
        self.tracer = tracer
        self.maxBacklogBytes = maxBacklogBytes
        self.onClosed = onClosed
    }

    /// Sets the framing of replies (that of the input, once detected). Any thread.
    public func setFraming(_ value: Framing) { framing.withLock { $0 = value } }

    /// True until the framing is known (replies default to NDJSON until then).
    public var framingIsUnset: Bool { framing.withLock { $0 == nil } }

    /// A channel whose bodies are framed and written by this writer.
    public var channel: ReplyChannel {
        ReplyChannel(queue: queue, onSend: { [self] count in self.backlog.add(count, ordering: .relaxed) }) { [self] body in
            self.enqueueOnWriterQueue(body)
        }
    }

    /// Body bytes sent to the writer's channel and not yet written out (queued or pending).
    public var backlogBytes: Int { backlog.load(ordering: .relaxed) }

    public var hasBacklogRoom: Bool { backlogBytes < maxBacklogBytes }

    /// Runs `action` (on the writer queue) once the backlog is below its limit.
    public func notifyWhenBacklogHasRoom(_ action: @escaping @Sendable () -> Void) {
        backlogWaiters.withLock { $0.append(action) }
        queue.async { self.wakeBacklogWaitersIfRoom() }
    }

    /// Frames `body` and schedules a flush. - Important: call on the writer queue.
    public func enqueueOnWriterQueue(_ body: [UInt8]) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !closed else { return }
        tracer?.record(direction: "out", body: body)
        FrameEncoder.append(body, framing: framing.withLock { $0 } ?? .ndjson, to: &pending)
        pendingBodyBytes += body.count
        if !flushScheduled {
            flushScheduled = true
            queue.async { self.flushOnWriterQueue() }
        }
    }

    /// Writes everything pending now. - Important: call on the writer queue.
    public func flushOnWriterQueue() {
        dispatchPrecondition(condition: .onQueue(queue))
        flushScheduled = false
        guard !closed, !pending.isEmpty else { return }
        let count = pendingBodyBytes
        pendingBodyBytes = 0
        do {
            try pending.withUnsafeBytes { try output.write($0) }
        } catch {
            closed = true
            pending = []
            onClosed()
            return
        }
        if pending.capacity > 4 * 1024 * 1024 {
            pending = []  // do not keep a burst's buffer forever
        } else {
            pending.removeAll(keepingCapacity: true)
        }
        backlog.subtract(count, ordering: .relaxed)
        wakeBacklogWaitersIfRoom()
    }

    private func wakeBacklogWaitersIfRoom() {
        guard hasBacklogRoom else { return }
        let waiters = backlogWaiters.withLock { waiters in
            defer { waiters.removeAll() }
            return waiters
        }
        for waiter in waiters { waiter() }
    }
}
