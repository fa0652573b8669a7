import Dispatch
import Synchronization
import SharedSupport

/// One request in flight: its deadline timer, its cancellation token, and its one reply.
///
/// **Exactly once.** Result, error, deadline, client cancellation and shutdown all end the call
/// through `settle`, whose first step is a single compare-and-exchange on `settled`; exactly one
/// caller wins and sends the reply, every later one returns false and is dropped silently. Losing
/// outcomes that are failures still cancel the work (the token fires on any non-result outcome).
/// Thread-safe: `settle` may race from the timer queue, the work queue, a `Task` and the reader.
///
/// **Interruptions** (deadline, client cancel, shutdown) arrive through `interrupt`. A method
/// answered `InterruptionReply.immediately` settles at once with the interruption's error; one
/// answered `.afterWorkStops` settles at once only if its handler has not started (and then never
/// starts it), and otherwise fires the token and lets the handler's outcome decide the reply
/// (`InterruptibleWorkState`), so a write that committed is never reported as undone.
final class Call: DeadlineItem, @unchecked Sendable {  // every stored property is a let, an Atomic, or set once in init
    let id: RequestID?
    let method: String
    /// The method's slot in the engine's statistics (`CallStatsTable`).
    let statsSlot: Int
    let deadlineMs: Int
    let startNanos: UInt64
    let token = CancellationToken()
    let progress: ProgressEmitter?

    /// The method's own deadline message, if any; the default one is built only if the deadline passes.
    private let deadlineMessage: String?
    private let settled = Atomic<Bool>(false)
    /// The work's state, for a method answered `.afterWorkStops`; nil for one answered at once.
    private let work: Locked<InterruptibleWorkState>?
    /// Where the reply goes; the engine delivers it in `onSettled`.
    let target: ReplyTarget
    /// How the outcome is framed in the reply: as JSON-RPC result/error, or as an MCP tool result.
    let replyStyle: ReplyStyle
    /// Delivers the reply and forgets the call (the engine); held weakly, so a call never keeps
    /// its engine alive, and as a reference, so no closure is allocated per call.
    private weak let owner: (any CallOwner)?
    private let deadlines: DeadlineScheduler

    /// Creates the call; `armDeadline()` must follow at once. `owner.callSettled` runs once, with
    /// the winning outcome: it delivers the reply (for a call with an id) and forgets the call.
    init(id: RequestID?, method: String, statsSlot: Int, deadlineMs: Int, deadlineMessage: String?,
         interruptionReply: InterruptionReply = .immediately, target: ReplyTarget, replyStyle: ReplyStyle,
         progress: (token: JSONValue, channel: ReplyChannel, intervalMs: Int)?, deadlines: DeadlineScheduler,
         owner: any CallOwner) {
        self.id = id
        self.method = method
        self.statsSlot = statsSlot
        self.deadlineMs = deadlineMs
        self.deadlineMessage = deadlineMessage
        self.target = target
        self.replyStyle = replyStyle
        self.owner = owner
        self.deadlines = deadlines
        work = interruptionReply == .afterWorkStops ? Locked(InterruptibleWorkState()) : nil
        let start = Uptime.nowNanos
        startNanos = start
        self.progress = progress.map {
            ProgressEmitter(token: $0.token, method: method, channel: $0.channel, startNanos: start,
                            deadlineMs: deadlineMs, intervalMs: $0.intervalMs, timerQueue: deadlines.queue)
        }
        // Saturating: a deadline too far to represent is no deadline (the registry is not a peer,
        // but a library's caller may still pass Int.max).
        super.init(deadlineNanos: Uptime.nanos(start, plusMilliseconds: deadlineMs))
    }

    /// Starts the deadline. Call exactly once, right after the call is registered.
    func armDeadline() {
        deadlines.add(self)
    }

    var deadline: DispatchTime { DispatchTime(uptimeNanoseconds: deadlineNanos) }

    var elapsedMs: Int { Uptime.millisecondsSince(startNanos) }

    /// Ends the call with `outcome` if nothing ended it before. Returns whether this call won.
    /// With `sendsReply` false the call ends without a reply (MCP: a request the client
    /// cancelled with `notifications/cancelled` is not answered). `ending` says what ended it,
    /// for the statistics.
    @discardableResult
    func settle(_ outcome: Result<ResultJSON, RPCError>, sendsReply: Bool = true, ending: CallEnding = .handler) -> Bool {
        guard settled.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            return false
        }
        deadlines.remove(self)
        progress?.close()
        if case .failure = outcome { token.cancel() }
        owner?.callSettled(self, outcome, sendsReply: sendsReply, ending: ending)
        return true
    }

    /// The deadline passed. Any thread (normally the timer queue).
    override func deadlinePassed() {
        interrupt(.deadline)
    }

    /// The deadline passed, the client cancelled, or the server is shutting down: settles with
    /// the interruption's error now, or, for a method answered `.afterWorkStops` whose handler is
    /// running, cancels the work and leaves the reply to `finishWork`. Any thread.
    func interrupt(_ interruption: CallInterruption) {
        guard let work else { return settleInterrupted(by: interruption) }
        switch work.withLock({ $0.interrupt(interruption) }) {
        case .settleNow: settleInterrupted(by: interruption)
        case .cancelWork: token.cancel()
        case .none: break
        }
    }

    /// Whether the handler may start now: not once the call is over (its token fired) or, for a
    /// method answered `.afterWorkStops`, once it was interrupted. Call once, right before the
    /// handler runs; a handler that starts must end in `finishWork`.
    func beginWork() -> Bool {
        guard let work else { return !token.isCancelled }
        return work.withLock { $0.start() }
    }

    /// Settles with the handler's outcome. For a method answered `.afterWorkStops` that was
    /// interrupted while it ran (or that failed once its deadline had passed), a result is still
    /// the reply, the work having been done, and a failure is answered with the interruption's
    /// error. Any thread.
    func finishWork(_ outcome: Result<ResultJSON, any Error>) {
        guard let work else {
            switch outcome {
            case .success(let value): settle(.success(value))
            case .failure(let error): fail(error)
            }
            return
        }
        let interruption = work.withLock { $0.finish() }
        switch outcome {
        case .success(let value):
            settle(.success(value), sendsReply: interruption?.sendsReply ?? true)
        case .failure(let error):
            if let interruption {
                settleInterrupted(by: interruption)
            } else if Uptime.nowNanos >= deadlineNanos {
                // The work saw its deadline before the timer queue did (a database's own timeout).
                settleInterrupted(by: .deadline)
            } else {
                fail(error)
            }
        }
    }

    /// Settles with `interruption`'s error.
    private func settleInterrupted(by interruption: CallInterruption) {
        let error: RPCError
        switch interruption {
        case .deadline:
            let message = MethodSpec.deadlineExceededMessage(custom: deadlineMessage, method: method, deadlineMs: deadlineMs)
            error = .deadlineExceeded(method: method, message: message, deadlineMs: deadlineMs, elapsedMs: elapsedMs)
        case .clientCancel: error = .cancelled(method: method)
        case .shutdown: error = .shuttingDown(method: method)
        }
        settle(.failure(error), sendsReply: interruption.sendsReply, ending: interruption.ending)
    }

    /// Settles with the error for a thrown handler error. A `CancellationError` is answered with
    /// its cause: after a client cancel or shutdown the call has already settled (so nothing is
    /// sent), and once the deadline has passed it is the deadline error, even when the handler saw
    /// the deadline (`context.deadline`) before the timer queue did.
    private func fail(_ error: any Error) {
        if error is CancellationError, Uptime.nowNanos >= deadlineNanos {
            return settleInterrupted(by: .deadline)
        }
        settle(.failure(Self.rpcError(for: error)))
    }

    static func rpcError(for error: any Error) -> RPCError {
        switch error {
        case let error as RPCError: return error
        case let error as any RPCErrorConvertible: return error.rpcError
        case let error as DecodingError: return ParamsDecoding.invalidParams(error)
        default: return .internalError(String(describing: error))
        }
    }
}

/// What a call reports to when it settles: the engine, which sends the reply and forgets the call.
protocol CallOwner: AnyObject, Sendable {
    /// Runs once per call, with the winning outcome and what produced it, on the thread that settled it.
    func callSettled(_ call: Call, _ outcome: Result<ResultJSON, RPCError>, sendsReply: Bool, ending: CallEnding)
}

/// How a call's outcome is framed in its reply.
enum ReplyStyle: Sendable {
    /// A JSON-RPC `result` or `error`.
    case plain
    /// An MCP `tools/call` result: every outcome of the method is a result (`MCPToolResult`).
    case mcpTool

    func reply(for outcome: Result<ResultJSON, RPCError>) -> Result<ResultJSON, RPCError> {
        switch self {
        case .plain: return outcome
        case .mcpTool: return .success(.value(MCPToolResult.make(outcome)))
        }
    }
}
