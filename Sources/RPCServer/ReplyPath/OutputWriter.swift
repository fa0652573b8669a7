import Dispatch
import Synchronization

/// The one writer of the protocol stream.
///
/// Any thread may `submit` a body: it is framed (in the stream's framing) and appended to a
/// pending buffer under a lock, and only when that buffer was empty is a flush scheduled on the
/// **writer queue**. The flush takes everything pending and writes it in one `write`. So under load
/// many frames coalesce into one syscall and one wake-up, and since only the writer queue writes,
/// and every frame is appended whole, two frames can never interleave. The tracer records each
/// reply in the same critical section that appends its frame, so the trace's order is the wire's.
///
/// `backlogBytes` (framed bytes submitted and not yet written) lets the reader stop reading when a
/// client does not read its replies, so memory stays bounded. Thread-safe.
package final class OutputWriter: Sendable {
    package let queue: DispatchQueue
    package let maxBacklogBytes: Int
    private let output: any ByteOutput
    private let tracer: Tracer?
    private let onClosed: @Sendable () -> Void

    private struct Pending {
        var bytes: [UInt8] = []
        var flushScheduled = false
        var closed = false
        var framing: Framing?
        /// Bytes handed to `write` and not yet written.
        var writing = 0
        var backlogWaiters: [@Sendable () -> Void] = []
    }

    private let pending = Locked(Pending())
    /// The writer queue's spare buffer, swapped with `pending.bytes` at each flush.
    private let spare: QueueBound<[UInt8]>

    /// `onClosed` runs once, on the writer queue, if the output fails (the reader went away).
    package init(output: any ByteOutput, tracer: Tracer? = nil, maxBacklogBytes: Int = 1024 * 1024,
                onClosed: @escaping @Sendable () -> Void) {
        queue = DispatchQueue(label: "RPCServer.writer", qos: .userInitiated)
        spare = QueueBound([], queue: queue)
        self.output = output
        self.tracer = tracer
        self.maxBacklogBytes = maxBacklogBytes
        self.onClosed = onClosed
    }

    /// Sets the framing of replies (that of the input, once detected). Any thread.
    package func setFraming(_ value: Framing) { pending.withLock { $0.framing = value } }

    /// A channel whose bodies this writer frames and writes.
    package var channel: ReplyChannel { ReplyChannel { [self] body in self.submit(body) } }

    /// Framed bytes submitted and not yet written out.
    package var backlogBytes: Int { pending.withLock { $0.bytes.count + $0.writing } }

    package var hasBacklogRoom: Bool { backlogBytes < maxBacklogBytes }

    /// Runs `action` (on the writer queue) once the backlog is below its limit.
    package func notifyWhenBacklogHasRoom(_ action: @escaping @Sendable () -> Void) {
        pending.withLock { $0.backlogWaiters.append(action) }
        queue.async { self.wakeBacklogWaitersIfRoom() }
    }

    /// Frames `body` and appends it to the pending output; schedules a flush if none is. Any thread.
    package func submit(_ body: [UInt8]) {
        let schedule = pending.withLock { state -> Bool in
            guard !state.closed else { return false }
            // Under the lock that orders frames, so the trace's order is the wire's. Cheap: the
            // tracer only copies the body and hands it to its own queue.
            tracer?.record(direction: "out", body: body)
            FrameEncoder.append(body, framing: state.framing ?? .ndjson, to: &state.bytes)
            if state.flushScheduled { return false }
            state.flushScheduled = true
            return true
        }
        if schedule { queue.async { self.flushOnWriterQueue() } }
    }

    /// Writes everything pending now. - Important: call on the writer queue.
    package func flushOnWriterQueue() {
        dispatchPrecondition(condition: .onQueue(queue))
        var batch: [UInt8] = []
        swap(&batch, &spare.value)
        let proceed = pending.withLock { state -> Bool in
            state.flushScheduled = false
            guard !state.closed, !state.bytes.isEmpty else { return false }
            swap(&batch, &state.bytes)
            state.writing = batch.count
            return true
        }
        guard proceed else {
            spare.value = batch  // keep the spare buffer for the next flush
            return
        }
        do {
            try batch.withUnsafeBytes { try output.write($0) }
        } catch {
            pending.withLock { state in
                state.closed = true
                state.bytes = []
            }
            onClosed()
            return
        }
        pending.withLock { $0.writing = 0 }
        // Keep the buffer for the next flush, unless a burst made it large.
        batch.removeAll(keepingCapacity: batch.capacity <= 1024 * 1024)
        spare.value = batch
        wakeBacklogWaitersIfRoom()
    }

    private func wakeBacklogWaitersIfRoom() {
        let waiters = pending.withLock { state -> [@Sendable () -> Void] in
            guard state.bytes.count + state.writing < maxBacklogBytes else { return [] }
            defer { state.backlogWaiters.removeAll() }
            return state.backlogWaiters
        }
        for waiter in waiters { waiter() }
    }
}
