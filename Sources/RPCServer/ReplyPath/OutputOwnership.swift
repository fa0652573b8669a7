/// Who may write the protocol stream now, as a pure state machine: at most one owner at a time,
/// the writer queue's flush or a thread writing directly, and every event returns what its caller
/// must do next. `OutputWriter` keeps it under its lock beside the pending bytes, and tells it how
/// many bytes are pending; it knows no queues, locks or descriptors.
///
/// ```
/// idle ──requestFlush──▶ flushScheduled ──flushStarts──▶ writerQueue ──writeEnded──▶ idle
///  │                                                        ▲   │ (more pending: goes on)
///  └──takeForDirectWrite──▶ direct ──writeEnded──▶ idle, or flushScheduled if more is pending
/// any owner ──writeEnded(failed)──▶ closed
/// ```
///
/// Whoever owns the output takes everything pending as one batch of whole frames; bytes appended
/// meanwhile wait for the owner's `writeEnded`, which hands them on: the writer queue writes them
/// next, a direct writer schedules a flush for them. Nobody waits for an owner to finish.
struct OutputOwnership: Equatable {
    enum State: Hashable {
        /// Nobody writes and no flush is scheduled. Pending bytes, if any, are held by open bursts.
        case idle
        /// A flush is queued on the writer queue; it takes what is pending when it runs.
        case flushScheduled
        /// The writer queue is writing a batch of this many bytes.
        case writerQueue(writing: Int)
        /// A thread other than the writer queue is writing a batch of this many bytes.
        case direct(writing: Int)
        /// A write failed (the reader went away): nothing is written any more.
        case closed
    }

    /// What a flush that starts on the writer queue does.
    enum FlushStart: Equatable {
        /// Take the pending bytes and write them: the writer queue owns the output.
        case write
        /// Nothing is pending: the output is idle and every byte submitted so far is written.
        case flushed
        /// A direct writer owns the output; its `writeEnded` hands on what is pending.
        case ownedElsewhere
        case closed
    }

    /// What follows the end of an owner's write.
    enum AfterWrite: Equatable {
        /// The writer queue goes on: take the pending bytes and write them too.
        case writeMore
        /// The direct writer hands the pending bytes to the writer queue: schedule a flush.
        case scheduleFlush
        /// Nothing is pending: the output is idle and every byte submitted so far is written.
        case flushed
        /// The write failed (or the output was closed before): nothing is written any more.
        case closed
        /// Nobody was writing: nothing to do (never expected; an event the state does not take).
        case notOwned
    }

    private(set) var state = State.idle

    var isClosed: Bool { state == .closed }

    /// Bytes handed to `write` and not yet written.
    var writing: Int {
        switch state {
        case .writerQueue(let count), .direct(let count): return count
        case .idle, .flushScheduled, .closed: return 0
        }
    }

    // MARK: - Events

    /// Bytes are pending and not held by a burst: true if the caller must schedule a flush (none
    /// is, and no owner will look at the pending bytes again).
    mutating func requestFlush() -> Bool {
        guard state == .idle else { return false }
        state = .flushScheduled
        return true
    }

    /// A thread would write the `pending` bytes itself: allowed, and it becomes the owner, only if
    /// the output is idle (no owner, no flush scheduled).
    mutating func takeForDirectWrite(pending: Int) -> Bool {
        guard state == .idle else { return false }
        state = .direct(writing: pending)
        return true
    }

    /// A flush runs on the writer queue with `pending` bytes waiting.
    mutating func flushStarts(pending: Int) -> FlushStart {
        switch state {
        case .idle, .flushScheduled:
            return writerQueueTakes(pending) ? .write : .flushed
        case .writerQueue, .direct:
            return .ownedElsewhere
        case .closed:
            return .closed
        }
    }

    /// The owner's write ended (`failed` if the output refused it), with `pending` bytes
    /// appended meanwhile.
    mutating func writeEnded(failed: Bool, pending: Int) -> AfterWrite {
        guard !failed else {
            state = .closed
            return .closed
        }
        switch state {
        case .writerQueue:
            return writerQueueTakes(pending) ? .writeMore : .flushed
        case .direct:
            guard pending > 0 else {
                state = .idle
                return .flushed
            }
            state = .flushScheduled
            return .scheduleFlush
        case .closed:
            return .closed
        case .idle, .flushScheduled:
            return .notOwned
        }
    }

    /// The writer queue owns the output to write the `pending` bytes, if there are any; else the
    /// output is idle.
    private mutating func writerQueueTakes(_ pending: Int) -> Bool {
        guard pending > 0 else {
            state = .idle
            return false
        }
        state = .writerQueue(writing: pending)
        return true
    }
}
