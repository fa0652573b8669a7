import Dispatch

extension RPCEngine {
    /// Starts `request` as a call of `method`: splits off `_meta`, registers the call (a duplicate
    /// id is refused), arms its deadline and hands the handler to its executor.
    /// `idCheckedOnArrival` false: the id has not been checked against the ids in use yet (a
    /// single request, whose check is this registration), so an id an open batch holds is refused
    /// too, and a duplicate is answered as such before any error of its params.
    /// - Important: call on the reader queue.
    func startCallOnReaderQueue(_ request: Request, method: ResolvedMethod, target: ReplyTarget, channel: ReplyChannel,
                                replyStyle: ReplyStyle = .plain, idCheckedOnArrival: Bool = true) {
        debugCheckOnQueue(readerQueue)
        let params: JSONValue?
        let meta: RequestMeta
        do {
            (params, meta) = try RequestMeta.split(request.params)
        } catch {
            if !idCheckedOnArrival, let id = request.id, inflight.withLock({ $0.isInUse(id) }) {
                return target.deliverBody(Self.duplicateReply(id))
            }
            return answerInline(request, target: target, .failure(error))
        }
        let deadlineMs = meta.deadlineMs(methodDeadlineMs: method.spec.deadlineMs)
        var progress: (token: JSONValue, channel: ReplyChannel, intervalMs: Int)?
        if let token = meta.progressToken, request.id != nil {
            progress = (token, channel, configuration.progressIntervalMs)
        }

        let call = Call(id: request.id, method: method.spec.name, statsSlot: method.statsSlot, deadlineMs: deadlineMs,
                        deadlineMessage: method.spec.deadlineMessage, interruptionReply: method.spec.interruptionReply, target: target, replyStyle: replyStyle,
                        progress: progress, deadlines: deadlines, owner: self)
        guard updatingInflight({ $0.register(call, refusingBatchIDs: !idCheckedOnArrival) }) else {
            // A duplicate id (for a batch element or an MCP tool call, checked on arrival and never
            // expected here). This call object is dropped unarmed and never replies.
            if let id = request.id { target.deliverBody(Self.duplicateReply(id)) }
            return
        }
        call.armDeadline()  // only once registered, so settling always finds it in the table
        var reporter: (@Sendable (Double, Double?, String?) -> Void)?
        if let emitter = call.progress {
            reporter = { progress, total, message in emitter.report(progress: progress, total: total, message: message) }
        }
        let context = CallContext(id: request.id, method: method.spec.name, cancellation: call.token, deadline: call.deadline,
                                  actor: meta.actor, progressReporter: reporter)
        let handlerParams = params
        let start: @Sendable () -> Void = {
            if let gate = method.gate {
                gate.enter { self.runHandler(call, method: method, params: handlerParams, context: context, release: gate.leave) }
            } else {
                self.runHandler(call, method: method, params: handlerParams, context: context, release: {})
            }
        }
        if let executor = method.spec.executor { executor(start) } else { workQueue.async(execute: start) }
    }

    /// Runs the handler (after any simulated latency) unless the call is already over; `release`
    /// runs once the handler has finished or was never started. Runs on the work queue, or on the
    /// method's own executor.
    private func runHandler(_ call: Call, method: ResolvedMethod, params: JSONValue?, context: CallContext,
                            release: @escaping @Sendable () -> Void) {
        let latency = method.simulatedLatencyMs
        guard latency > 0 else { return Self.invoke(call, method: method, params: params, context: context, release: release) }
        // After the delay the handler starts where its method says, like an undelayed one.
        let invoke: @Sendable () -> Void = { Self.invoke(call, method: method, params: params, context: context, release: release) }
        var startAfterDelay = invoke
        if let executor = method.spec.executor { startAfterDelay = { executor(invoke) } }
        CancellableDelay.start(milliseconds: latency, queue: workQueue, token: call.token, then: startAfterDelay, orElse: release)
    }

    /// Runs the handler now unless the call is already over, and settles the call with its outcome.
    private static func invoke(_ call: Call, method: ResolvedMethod, params: JSONValue?, context: CallContext,
                               release: @escaping @Sendable () -> Void) {
        guard call.beginWork() else { return release() }
        switch method.spec.handler {
        case .synchronous(let handler):
            let result = Result { try handler(params, context) }
            release()
            call.finishWork(result)
        case .completion(let handler):
            handler(params, context) { result in
                release()
                call.finishWork(result)
            }
        }
    }

    /// Delivers a settled call's reply and forgets the call. A reply to the connection is sent
    /// under the same lock that frees its id, so a request reusing the id is either checked before
    /// the reply exists (a duplicate) or after it was sent (allowed), never in between. A batch
    /// element frees its id first (the batch still holds it) and then fills its slot. Either way
    /// the reply is handed on before any drain waiter runs (an open batch counts as in flight).
    /// Any thread.
    ///
    /// When this was the last call in flight and the writer is idle, the thread that settled the
    /// call writes the reply itself, after the lock is released (`OutputWriter.DirectWrite`): an
    /// idle server then answers without waking the writer queue. With other calls in flight,
    /// replies go through the batching writer queue.
    func callSettled(_ call: Call, _ outcome: Result<ResultJSON, RPCError>, sendsReply: Bool, ending: CallEnding) {
        let body = sendsReply ? call.id.map { ReplyTarget.encode(id: $0, call.replyStyle.reply(for: outcome)) } : nil
        var directWrite: OutputWriter.DirectWrite?
        var errorCode: Int?
        if case .failure(let error) = outcome { errorCode = error.code.rawValue }
        let latencyNanos = Uptime.nanosSince(call.startNanos)
        let waiters = updatingInflight { table -> [InflightTable.Waiter] in
            let waiters = table.settle(call, errorCode: errorCode, ending: ending, latencyNanos: latencyNanos)
            if case .channel(let channel) = call.target, let body {
                if table.count == 0 {
                    directWrite = channel.sendWritingIfIdle(body)
                } else {
                    channel.send(body)
                }
            }
            return waiters
        }
        directWrite?.perform()
        // A batch element's batch is still open (it counts as in flight), so no drain waiter can
        // run before the batch's reply is sent.
        if case .batch(let collector, let slot) = call.target, let body { collector.fill(slot: slot, with: body) }
        for action in waiters { readerQueue.async(execute: action) }
    }
}
