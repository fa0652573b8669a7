import Dispatch

/// What a handler knows about the call it serves. `Sendable`; pass it to any queue or task.
///
/// ```swift
/// .async("files.index", params: NoParams.self, deadlineMs: 60_000) { _, context in
///     for (done, file) in files.enumerated() {
///         guard !context.cancellation.isCancelled else { break }   // deadline, cancel, shutdown
///         try await index(file)
///         context.reportProgress(Double(done + 1), total: Double(files.count))
///     }
///     return EmptyResult()
/// }
/// ```
public struct CallContext: Sendable {
    /// The request id, nil for a notification.
    public let id: RequestID?
    public let method: String
    /// Fires when the call passes its deadline, is cancelled by the client, or the server shuts down.
    /// Work should stop when it fires; its result would be discarded anyway.
    public let cancellation: CancellationToken
    /// When the call's deadline passes.
    public let deadline: DispatchTime
    /// Who the call is made for, as the request's `params._meta.actor` named them (a non-empty
    /// string of at most 256 bytes; the engine refuses any other with -32602); nil when it did
    /// not. The client's word, not an authenticated identity: record it, do not trust it.
    public let actor: String?
    let progressReporter: (@Sendable (Double, Double?, String?) -> Void)?

    public init(id: RequestID?, method: String, cancellation: CancellationToken = CancellationToken(),
                deadline: DispatchTime = .distantFuture, actor: String? = nil) {
        self.init(id: id, method: method, cancellation: cancellation, deadline: deadline, actor: actor, progressReporter: nil)
    }

    init(id: RequestID?, method: String, cancellation: CancellationToken, deadline: DispatchTime, actor: String?,
         progressReporter: (@Sendable (Double, Double?, String?) -> Void)?) {
        self.id = id
        self.method = method
        self.cancellation = cancellation
        self.deadline = deadline
        self.actor = actor
        self.progressReporter = progressReporter
    }

    /// Whether the client asked for progress (sent `_meta.progressToken`).
    public var wantsProgress: Bool { progressReporter != nil }

    /// Sends `notifications/progress` for this call if the client asked for it; otherwise does
    /// nothing. `progress` must increase from one report to the next. Once a handler reports, the
    /// engine's periodic heartbeat for this call stops. Thread-safe; never sent after the reply.
    public func reportProgress(_ progress: Double, total: Double? = nil, message: String? = nil) {
        progressReporter?(progress, total, message)
    }
}
