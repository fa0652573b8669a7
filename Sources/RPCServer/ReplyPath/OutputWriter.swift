import Dispatch
import Synchronization
import SharedSupport

/// The one writer of the protocol stream.
///
/// Any thread may `submit` a body: it is framed (in the stream's framing) and appended to a
/// pending buffer under a lock, and only when that buffer was empty is a flush scheduled on the
/// **writer queue**. The flush takes everything pending and writes it in one `write`. So under load
/// many frames coalesce into one syscall and one wake-up. The tracer records each reply in the same
/// critical section that appends its frame, so the trace's order is the wire's.
///
/// **Direct writes (the idle fast path).** When the server is idle, waking the writer queue for one
/// reply costs more than the reply: a context switch on each side. So a thread may write a reply
/// itself (`submitWritingIfIdle`, and the end of a `ReplyBurst`, such as the reader's), but
/// only when the writer is idle *and* nothing else is pending, and only into a descriptor whose
/// `write` cannot block (a pipe with room for the bytes, a regular file; see `DirectOutput`). It
/// is safe because writing is *owned* (`OutputOwnership`, under the lock): whoever takes the
/// pending bytes (the writer queue's flush or a direct writer) owns the output until its write
/// ends, at most one owner at a time; meanwhile other submits only append; the owner takes
/// everything pending, in append order, as one batch of whole frames, and when its write ends hands
/// what piled up meanwhile on (the writer queue writes it next; a direct writer schedules a flush).
/// So frames are written whole, in the order they were appended (the trace's order), never
/// interleaved, nobody waits for another owner, and under load everything still goes through the
/// batching writer queue.
///
/// `backlogBytes` (framed bytes submitted and not yet written) lets the reader stop reading when a
/// client does not read its replies, so memory stays bounded. Thread-safe.
package final class OutputWriter: Sendable {
    package let queue: DispatchQueue
    package let maxBacklogBytes: Int
    private let output: any ByteOutput
    /// Set when `output` may also be written from other threads than the writer queue.
    private let direct: DirectOutput?
    private let tracer: Tracer?
    private let onClosed: @Sendable () -> Void

    private struct Pending {
        var bytes: [UInt8] = []
        var framing: Framing?
        /// Who writes now; only the owner writes, and it looks at `bytes` again when its write ends.
        var ownership = OutputOwnership()
        /// Threads with an open `ReplyBurst` that this writer holds replies for: their own
        /// submits only append, and each burst's end decides how they go out.
        var openBursts = 0
        var backlogWaiters: [@Sendable () -> Void] = []
        /// Run (on the writer queue) once every byte submitted before them is written, or the output closed.
        var flushWaiters: [@Sendable () -> Void] = []
    }

    /// Pending bytes taken by a direct writer, to be written with `perform()` once the caller has
    /// released its own locks. Whoever gets one must perform it, once: the writer stays owned (and
    /// every later reply waits) until then.
    struct DirectWrite {
        fileprivate let writer: OutputWriter
        fileprivate let batch: [UInt8]

        /// Writes the batch on this thread, then hands whatever was submitted meanwhile to the
        /// writer queue. Any thread; call with no lock held.
        func perform() { writer.writeDirectly(batch) }
    }

    private let pending = Locked(Pending())
    /// `backlogBytes`, stored under `pending`'s lock each time it is released, so the reader can
    /// ask `hasBacklogRoom` once per frame without taking that lock.
    private let backlogMirror = Atomic<Int>(0)

    /// Runs `body` on the pending state under its lock and publishes the backlog after it.
    private func withPending<T>(_ body: (inout Pending) -> T) -> T {
        pending.withLock { state in
            let result = body(&state)
            backlogMirror.store(state.bytes.count + state.ownership.writing, ordering: .relaxed)
            return result
        }
    }
    /// The writer queue's spare buffer, swapped with `pending.bytes` at each flush.
    private let spare: QueueBound<[UInt8]>

    /// `onClosed` runs once, on the writer queue, if the output fails (the reader went away).
    package init(output: any ByteOutput, tracer: Tracer? = nil, maxBacklogBytes: Int = 1024 * 1024,
                onClosed: @escaping @Sendable () -> Void) {
        queue = DispatchQueue(label: "RPCServer.writer", qos: .userInitiated)
        spare = QueueBound([], queue: queue)
        self.output = output
        direct = (output as? FileDescriptorOutput).flatMap { DirectOutput(fd: $0.fd) }
        self.tracer = tracer
        self.maxBacklogBytes = maxBacklogBytes
        self.onClosed = onClosed
    }

    /// Sets the framing of replies (that of the input, once detected). Any thread.
    package func setFraming(_ value: Framing) { withPending { $0.framing = value } }

    /// A channel whose bodies this writer frames and writes.
    package var channel: ReplyChannel { ReplyChannel(writer: self) }

    /// Framed bytes submitted and not yet written out.
    package var backlogBytes: Int { withPending { $0.bytes.count + $0.ownership.writing } }

    /// Whether the backlog is below its limit, as of the last change to it (without the lock).
    package var hasBacklogRoom: Bool { backlogMirror.load(ordering: .relaxed) < maxBacklogBytes }

    /// Runs `action` (on the writer queue) once the backlog is below its limit.
    package func notifyWhenBacklogHasRoom(_ action: @escaping @Sendable () -> Void) {
        withPending { $0.backlogWaiters.append(action) }
        queue.async { self.wakeBacklogWaitersIfRoom() }
    }

    /// Runs `action` on the writer queue once every byte submitted before this call is written
    /// (or the output has closed). Replies an open burst holds are not waited for: they are
    /// written now. Any thread.
    package func whenFlushed(_ action: @escaping @Sendable () -> Void) {
        let (now, schedule) = withPending { state -> (Bool, Bool) in
            if state.ownership.isClosed || (state.ownership.state == .idle && state.bytes.isEmpty) { return (true, false) }
            state.flushWaiters.append(action)
            return (false, state.ownership.requestFlush())
        }
        if now { queue.async(execute: action) }
        if schedule { queue.async { self.flushOnWriterQueue() } }
    }

    /// Frames `body` and appends it to the pending output; schedules a flush if none is (unless the
    /// caller's open `ReplyBurst` holds it). Never writes on the caller's thread, so it may be
    /// called under any lock. Any thread.
    package func submit(_ body: [UInt8]) {
        let burst = ThreadBurst.open  // this thread's own: looked up before the lock, not under it
        let schedule = withPending { state -> Bool in
            guard appendLocked(body, to: &state) else { return false }
            if held(for: burst, &state) { return false }
            return state.ownership.requestFlush()
        }
        if schedule { queue.async { self.flushOnWriterQueue() } }
    }

    /// Like `submit`, but if the writer is idle and nothing else is pending, the caller becomes the
    /// writer: it gets the frame back as a `DirectWrite` and must `perform()` it, after
    /// releasing any lock it holds. Otherwise (load, a burst, an output that could block) the frame
    /// goes to the batching writer queue and nil is returned; on a thread with an open burst it
    /// is held for the burst's end, as `submit` holds it. Any thread.
    func submitWritingIfIdle(_ body: [UInt8]) -> DirectWrite? {
        guard let direct else {
            submit(body)
            return nil
        }
        var batch: [UInt8]?
        let burst = ThreadBurst.open
        let schedule = withPending { state -> Bool in
            let wasEmpty = state.bytes.isEmpty
            guard appendLocked(body, to: &state) else { return false }
            // Settled inside a burst (a read lane's, or a call the reader started inline): held like `submit`'s.
            if held(for: burst, &state) { return false }
            if wasEmpty, state.openBursts == 0, let taken = takeIfIdleLocked(&state, direct) {
                batch = taken
                return false
            }
            return state.ownership.requestFlush()
        }
        if schedule { queue.async { self.flushOnWriterQueue() } }
        return batch.map { DirectWrite(writer: self, batch: $0) }
    }

    // MARK: - Bursts

    /// Opens the reader's burst for a chunk of input: a `ReplyBurst` on the calling thread. Pair
    /// with `endReaderBurst` on the same thread.
    func beginReaderBurst() {
        ReplyBurst.begin()
    }

    /// Ends the reader's burst. With `writeIfIdle` (the reader has nothing else to do: no more
    /// input is waiting), and if the writer is idle and the output has room, this thread writes
    /// what is pending itself; otherwise the writer queue does.
    func endReaderBurst(writeIfIdle: Bool) {
        ReplyBurst.end(writeIfIdle: writeIfIdle)
    }

    /// Whether a reply just appended is held for `burst`, the calling thread's open burst if any
    /// (joining it the first time). Call under the lock.
    private func held(for burst: ThreadBurst?, _ state: inout Pending) -> Bool {
        guard let burst else { return false }
        if burst.join(self) { state.openBursts += 1 }
        return true
    }

    /// The end of a burst this writer held replies for (`ReplyBurst.end`, on the burst's thread,
    /// with no lock held): write what is pending here if `writeIfIdle` and the writer is idle and
    /// the output has room, else schedule a flush.
    func endBurst(writeIfIdle: Bool) {
        var batch: [UInt8]?
        let schedule = withPending { state -> Bool in
            state.openBursts -= 1
            guard !state.ownership.isClosed, !state.bytes.isEmpty else { return false }
            if writeIfIdle, let direct, let taken = takeIfIdleLocked(&state, direct) {
                batch = taken
                return false
            }
            return state.ownership.requestFlush()
        }
        if schedule { queue.async { self.flushOnWriterQueue() } }
        if let batch { writeDirectly(batch) }
    }

    // MARK: - Writer queue

    /// Writes everything pending, and what is submitted while it writes, until nothing is
    /// pending. If a direct writer owns the output it returns at once: that writer hands what is
    /// pending to the writer queue when its write ends. - Important: call on the writer queue.
    package func flushOnWriterQueue() {
        dispatchPrecondition(condition: .onQueue(queue))
        var batch: [UInt8] = []
        swap(&batch, &spare.value)
        var flushed: [@Sendable () -> Void] = []
        var write = withPending { state -> Bool in
            switch state.ownership.flushStarts(pending: state.bytes.count) {
            case .write:
                swap(&batch, &state.bytes)  // the spare's empty buffer takes the next appends
                return true
            case .flushed:
                flushed = Self.takeFlushWaitersLocked(&state)
                return false
            case .ownedElsewhere, .closed:
                return false
            }
        }
        while write {
            // Keep the buffer for the next flush, unless a burst made it large.
            let failed = writeAsOwner(&batch, keepingCapacityUpTo: 1024 * 1024)
            // What was submitted during the write is written next, by this flush.
            write = withPending { state -> Bool in
                guard Self.endWriteLocked(&state, failed: failed, flushWaiters: &flushed) == .writeMore else { return false }
                swap(&batch, &state.bytes)
                return true
            }
            if failed {
                onClosed()
                break
            }
            wakeBacklogWaitersIfRoom()
        }
        spare.value = batch  // keep the spare buffer for the next flush
        for action in flushed { action() }
    }

    // MARK: - Helpers

    /// Frames `body` into the pending bytes and records it in the trace, both in one critical
    /// section so the trace's order is the wire's. False if the output is closed.
    private func appendLocked(_ body: [UInt8], to state: inout Pending) -> Bool {
        guard !state.ownership.isClosed else { return false }
        // Cheap: the tracer only copies the body and hands it to its own queue.
        tracer?.record(direction: "out", body: body)
        FrameEncoder.append(body, framing: state.framing ?? .ndjson, to: &state.bytes)
        return true
    }

    /// Takes every pending byte for a direct write if the writer is idle (no owner, no flush
    /// scheduled) and `direct` can take them without blocking; nil otherwise.
    private func takeIfIdleLocked(_ state: inout Pending, _ direct: DirectOutput) -> [UInt8]? {
        guard state.ownership.state == .idle, direct.mayTake(state.bytes.count),
              state.ownership.takeForDirectWrite(pending: state.bytes.count) else { return nil }
        var batch: [UInt8] = []
        swap(&batch, &state.bytes)
        return batch
    }

    private static func takeFlushWaitersLocked(_ state: inout Pending) -> [@Sendable () -> Void] {
        guard !state.flushWaiters.isEmpty else { return [] }
        defer { state.flushWaiters.removeAll() }
        return state.flushWaiters
    }

    /// Writes `batch` on this thread as the owner (`DirectOutput.write`: never blocks), then gives
    /// ownership up: what it could not write, and what was submitted meanwhile, goes to the writer
    /// queue, in that order. A failed write closes the writer (and runs `onClosed` on the writer
    /// queue, as a failed flush does).
    private func writeDirectly(_ batch: [UInt8]) {
        var batch = batch
        let written = batch.withUnsafeBytes { direct?.write($0) }
        let failed = written == nil
        var flushed: [@Sendable () -> Void] = []
        let (schedule, wakeWaiters) = withPending { state -> (Bool, Bool) in
            if let written, written < batch.count {
                // Left for the writer queue, ahead of anything appended since: the frame it cuts
                // through is finished before another begins.
                state.bytes.insert(contentsOf: batch[written...], at: 0)
            }
            let after = Self.endWriteLocked(&state, failed: failed, flushWaiters: &flushed)
            if after == .flushed, state.bytes.capacity < batch.capacity {  // reuse the buffer
                batch.removeAll(keepingCapacity: batch.capacity <= 64 * 1024)
                swap(&batch, &state.bytes)
            }
            return (after == .scheduleFlush, !failed && !state.backlogWaiters.isEmpty)
        }
        if failed {
            queue.async { [flushed] in
                self.onClosed()
                for action in flushed { action() }
            }
            return
        }
        if schedule { queue.async { self.flushOnWriterQueue() } }
        if wakeWaiters { queue.async { self.wakeBacklogWaitersIfRoom() } }
        if !flushed.isEmpty { queue.async { [flushed] in for action in flushed { action() } } }
    }

    /// Writes `batch` as the output's owner, then empties it, keeping its buffer unless larger
    /// than `limit` bytes. True if the write failed (the output is gone).
    private func writeAsOwner(_ batch: inout [UInt8], keepingCapacityUpTo limit: Int) -> Bool {
        var failed = false
        do {
            try batch.withUnsafeBytes { try output.write($0) }
        } catch {
            failed = true
        }
        batch.removeAll(keepingCapacity: batch.capacity <= limit)
        return failed
    }

    /// Ends the owner's write (`OutputOwnership.writeEnded`). A failed write closes the output and
    /// drops what is pending (the reader went away); once the output is flushed or closed, the
    /// flush waiters are moved to `flushWaiters`, to run on the writer queue. Call under the lock.
    private static func endWriteLocked(_ state: inout Pending, failed: Bool,
                                       flushWaiters: inout [@Sendable () -> Void]) -> OutputOwnership.AfterWrite {
        let after = state.ownership.writeEnded(failed: failed, pending: state.bytes.count)
        switch after {
        case .closed:
            state.bytes = []
            flushWaiters = takeFlushWaitersLocked(&state)
        case .flushed:
            flushWaiters = takeFlushWaitersLocked(&state)
        case .writeMore, .scheduleFlush, .notOwned:
            break
        }
        return after
    }

    private func wakeBacklogWaitersIfRoom() {
        let waiters = withPending { state -> [@Sendable () -> Void] in
            guard state.bytes.count + state.ownership.writing < maxBacklogBytes else { return [] }
            defer { state.backlogWaiters.removeAll() }
            return state.backlogWaiters
        }
        for waiter in waiters { waiter() }
    }
}
