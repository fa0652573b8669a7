/// The life of the work of a call answered `InterruptionReply.afterWorkStops`: whether its
/// handler has started, was abandoned before it could, or ran and finished, and what interrupted
/// it meanwhile. A pure value: each event returns what the call must do, so the race between the
/// handler starting and an interruption arriving is settled by whichever event the call's lock
/// sees first.
struct InterruptibleWorkState: Sendable, Equatable {
    enum State: Sendable, Hashable {
        /// Waiting for its executor, its method's concurrency gate or a simulated latency.
        case notStarted
        /// The handler runs; `interruptedBy` is the first interruption that arrived meanwhile.
        case running(interruptedBy: CallInterruption?)
        /// Interrupted before it started: answered already, and the handler never runs.
        case abandoned
        /// The handler finished; the call is settled with its outcome.
        case finished
    }

    private(set) var state = State.notStarted

    /// What the call does about an interruption.
    enum InterruptAction: Sendable, Equatable {
        /// Settle now with the interruption's error: no work was done, and none will be.
        case settleNow
        /// Cancel the work (fire the token) and leave the reply to the handler's outcome.
        case cancelWork
        /// Nothing: an earlier interruption is already being acted on, or the call is over.
        case none
    }

    /// The handler is about to run. Returns whether it may: false once the call was abandoned.
    mutating func start() -> Bool {
        guard state == .notStarted else { return false }
        state = .running(interruptedBy: nil)
        return true
    }

    /// The deadline passed, the client cancelled or the server is shutting down.
    mutating func interrupt(_ interruption: CallInterruption) -> InterruptAction {
        switch state {
        case .notStarted:
            state = .abandoned
            return .settleNow
        case .running(interruptedBy: nil):
            state = .running(interruptedBy: interruption)
            return .cancelWork
        case .running, .abandoned, .finished:
            return .none
        }
    }

    /// The handler finished. Returns what interrupted it while it ran, if anything: its outcome
    /// is then a result if it completed the work anyway, or that interruption's error if it failed.
    mutating func finish() -> CallInterruption? {
        guard case .running(let interruption) = state else { return nil }
        state = .finished
        return interruption
    }
}
