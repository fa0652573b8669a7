import Dispatch
import SharedSupport

/// The transport-independent JSON-RPC 2.0 engine: it takes decoded messages in arrival order on its
/// serial **reader queue**, answers built-ins and control messages there, and runs every other
/// request as a `Call` on the concurrent **work queue**, with its deadline on the **timer queue**.
/// Replies and notifications leave through a `ReplyChannel`, on the queue the caller chose.
///
/// Guarantees: exactly one reply per request id; a cancel never overtakes the request it names
/// (both are handled in arrival order on the reader queue); a slow call never delays a fast one;
/// batch replies keep request order. Thread-safe; entry points state their queue.
package final class RPCEngine: Sendable, CallOwner {
    package let readerQueue: DispatchQueue
    package let workQueue: DispatchQueue
    package let timerQueue: DispatchQueue
    package let configuration: EngineConfiguration
    package let registry: MethodRegistry
    package let identity: ServerIdentity

    /// The default queue for completions of `submit` when the caller does not inject one.
    package static let defaultCallbackQueue = DispatchQueue(label: "RPCServer.callbacks")

    /// Each method with what the engine needs per call, resolved once so starting a call hashes
    /// the method name once.
    private let methods: [String: ResolvedMethod]
    private let deadlines: DeadlineScheduler
    private let discovery: JSONValue
    private let tools: MCPToolCatalog
    /// The server's own `rpc.stats` sections, and when the engine started (for `uptimeMs`).
    private let statsSections: [StatsSection]
    private let startNanos = DispatchTime.now().uptimeNanoseconds
    /// Whether the client opened an MCP session (`initialize` with a `protocolVersion`).
    private let session: QueueBound<SessionState>
    private let inflight: Locked<InflightTable>

    /// Every call in flight: requests by id (for cancellation and duplicate checks), notifications
    /// by identity (they have no id, but shutdown must still stop their work).
    private struct InflightTable {
        var byID: [RequestID: Call] = [:]
        /// The ids of each batch's requests, held from the batch's arrival until its one reply is
        /// sent: until then the batch's answer for an id is unsent, so the id is still in use.
        var batchIDs: Set<RequestID> = []
        var withoutID: [ObjectIdentifier: Call] = [:]
        /// Batches whose one reply has not been sent yet: each counts as in flight, so the table
        /// is not drained (and the connection does not finish) while a batch reply is unsent.
        var openBatches = 0
        var count: Int { byID.count + withoutID.count + openBatches }

        /// Whether a new request may not use `id` yet (protocol.md, section 2).
        func isInUse(_ id: RequestID) -> Bool { byID[id] != nil || batchIDs.contains(id) }
        var capacityWaiters: [@Sendable () -> Void] = []
        var drainWaiters: [@Sendable () -> Void] = []
        /// Per-method counts for `rpc.stats`, updated in the same locked step that registers or
        /// forgets a call.
        var stats: CallStatsTable
    }

    /// - Parameters:
    ///   - registry: the methods to serve (also listed as MCP tools).
    ///   - configuration: limits and tunables.
    ///   - identity: how the server presents itself in `rpc.discover` and MCP's `initialize`.
    package init(registry: MethodRegistry, configuration: EngineConfiguration = EngineConfiguration(),
                identity: ServerIdentity = ServerIdentity(name: "rpc-server", version: "0.0.0")) {
        self.registry = registry
        self.configuration = configuration
        self.identity = identity
        readerQueue = DispatchQueue(label: "RPCServer.reader", qos: .userInitiated)
        session = QueueBound(SessionState(), queue: readerQueue)
        workQueue = DispatchQueue(label: "RPCServer.work", qos: .userInitiated, attributes: .concurrent)
        timerQueue = DispatchQueue(label: "RPCServer.timer", qos: .userInteractive)
        deadlines = DeadlineScheduler(queue: timerQueue)
        var methods: [String: ResolvedMethod] = [:]
        let workQueue = workQueue
        for (slot, name) in registry.names.enumerated() {
            guard let spec = registry[name] else { continue }
            let gate = spec.concurrencyLimit.map { limit in
                ConcurrencyGate(limit: limit, schedule: spec.executor ?? { [workQueue] in workQueue.async(execute: $0) })
            }
            methods[name] = ResolvedMethod(spec: spec, gate: gate, simulatedLatencyMs: configuration.simulatedLatencyMs[name] ?? 0,
                                           statsSlot: slot)
        }
        self.methods = methods
        inflight = Locked(InflightTable(stats: CallStatsTable(methodCount: registry.names.count)))
        statsSections = registry.statsSections
        discovery = OpenRPCDocument.make(registry: registry, title: identity.title, version: identity.version)
        tools = MCPToolCatalog(registry: registry)
    }

    // MARK: - Entry points

    /// In-process entry: decodes one message and answers it through `reply`, which is called on
    /// `callbackQueue` once per reply (never for notifications) and for each progress notification.
    /// Thread-safe; call from any queue.
    package func submit(_ message: [UInt8], callbackQueue: DispatchQueue = RPCEngine.defaultCallbackQueue,
                       reply: @escaping @Sendable ([UInt8]) -> Void) {
        let channel = ReplyChannel(queue: callbackQueue, deliver: reply)
        readerQueue.async {
            let decoded = message.withUnsafeBytes { MessageDecoder.decode($0, maxDepth: self.configuration.maxDepth) }
            self.receiveOnReaderQueue(decoded, channel: channel)
        }
    }

    /// Handles one decoded message. - Important: call on the reader queue, in arrival order.
    package func receiveOnReaderQueue(_ message: IncomingMessage, channel: ReplyChannel) {
        dispatchPrecondition(condition: .onQueue(readerQueue))
        switch message {
        case .single(.invalid(let error, let id)):
            channel.send(ReplyEncoder.error(id: id, error: error))
        case .single(.request(let request)):
            guard let id = request.id else { return handleOnReaderQueue(request, target: .none, channel: channel) }
            if inflight.withLock({ $0.isInUse(id) }) {
                return channel.send(Self.duplicateReply(id))
            }
            handleOnReaderQueue(request, target: .channel(channel), channel: channel)
        case .batch(let elements):
            receiveBatchOnReaderQueue(elements, channel: channel)
        }
    }

    /// Runs a batch's elements concurrently and answers with one array in request order. Every id
    /// is checked against the ids in use and the batch's earlier elements, then held until the
    /// batch's reply is sent. - Important: call on the reader queue.
    private func receiveBatchOnReaderQueue(_ elements: [IncomingElement], channel: ReplyChannel) {
        dispatchPrecondition(condition: .onQueue(readerQueue))
        let answered = elements.filter { if case .request(let request) = $0 { return !request.isNotification } else { return true } }
        guard !answered.isEmpty else {
            for case .request(let request) in elements { handleOnReaderQueue(request, target: .none, channel: channel) }
            return
        }
        // Reserve every id first (one lock); a repeated or in-use id is a duplicate.
        let ids = elements.compactMap { element -> RequestID? in
            if case .request(let request) = element { return request.id } else { return nil }
        }
        let reserved: Set<RequestID> = inflight.withLock { table in
            var reserved = Set<RequestID>()
            for id in ids where !table.isInUse(id) && !reserved.contains(id) { reserved.insert(id) }
            table.batchIDs.formUnion(reserved)
            table.openBatches += 1
            return reserved
        }
        // The array goes out and its ids are released in one step under the lock, so a request
        // reusing one of them is either before the reply (a duplicate) or after it (allowed).
        let collector = BatchCollector(slots: answered.count) { [weak self] array in
            guard let self else { return channel.send(array) }
            let waiters = inflight.withLock { table in
                channel.send(array)
                table.batchIDs.subtract(reserved)
                table.openBatches -= 1
                return takeWaiters(&table)
            }
            for action in waiters { readerQueue.async(execute: action) }
        }
        var unclaimed = reserved
        var slot = 0
        for element in elements {
            switch element {
            case .invalid(let error, let id):
                collector.fill(slot: slot, with: ReplyEncoder.error(id: id, error: error))
                slot += 1
            case .request(let request):
                guard let id = request.id else {
                    handleOnReaderQueue(request, target: .none, channel: channel)
                    continue
                }
                if unclaimed.remove(id) != nil {
                    handleOnReaderQueue(request, target: .batch(collector, slot: slot), channel: channel)
                } else {
                    collector.fill(slot: slot, with: Self.duplicateReply(id))
                }
                slot += 1
            }
        }
    }

    /// The reply to a request whose id is in use: id null, since the id belongs to the earlier
    /// request, which still gets its own one reply; `data.id` names the duplicate.
    private static func duplicateReply(_ id: RequestID) -> [UInt8] {
        ReplyEncoder.error(id: .null, error: .duplicateID(id))
    }

    // MARK: - Capacity and lifecycle

    /// Calls in flight (requests and notifications whose handlers have not settled), plus batches
    /// whose reply has not been sent.
    package var inflightCount: Int { inflight.withLock { $0.count } }

    /// Whether another call may start without exceeding `maxInflight`.
    package var hasCapacity: Bool { inflight.withLock { $0.count < configuration.maxInflight } }

    /// In-flight calls at or below which a paused reader resumes: hysteresis, so a full pipeline
    /// wakes the reader once per quarter of the limit rather than once per completed call.
    package var resumeThreshold: Int { max(0, configuration.maxInflight - max(1, configuration.maxInflight / 4)) }

    /// Runs `action` on the reader queue once in-flight calls are at or below `resumeThreshold`
    /// (at once if they are).
    package func notifyWhenCapacityAvailable(_ action: @escaping @Sendable () -> Void) {
        let now = inflight.withLock { table -> Bool in
            if table.count <= resumeThreshold { return true }
            table.capacityWaiters.append(action)
            return false
        }
        if now { readerQueue.async(execute: action) }
    }

    /// Runs `action` on the reader queue once no call is in flight (at once if none is).
    package func notifyWhenDrained(_ action: @escaping @Sendable () -> Void) {
        let now = inflight.withLock { table -> Bool in
            if table.count == 0 { return true }
            table.drainWaiters.append(action)
            return false
        }
        if now { readerQueue.async(execute: action) }
    }

    /// Ends every call still in flight: requests are answered with `ShuttingDown`, notifications end
    /// silently; the work of both is cancelled. Thread-safe.
    package func abortAllInflight() {
        let calls = inflight.withLock { Array($0.byID.values) + Array($0.withoutID.values) }
        for call in calls { call.settle(.failure(.shuttingDown(method: call.method)), ending: .shutdown) }
    }

    // MARK: - Dispatch

    private func handleOnReaderQueue(_ request: Request, target: ReplyTarget, channel: ReplyChannel) {
        dispatchPrecondition(condition: .onQueue(readerQueue))
        switch request.method {
        case "$/cancelRequest":
            cancelOnReaderQueue(request.params?["id"])
            answerInline(request, target: target, .success(.object([:])))
        case "notifications/cancelled":
            // MCP: a request the client cancelled this way gets no reply at all.
            cancelOnReaderQueue(request.params?["requestId"], silently: session.value.isMCP)
            answerInline(request, target: target, .success(.object([:])))
        case "initialize":
            answerInline(request, target: target, .success(initializeOnReaderQueue(request.params)))
        case "notifications/initialized":
            answerInline(request, target: target, .success(.object([:])))
        case "tools/list":
            let cursor = request.params?["cursor"]
            guard cursor == nil || cursor == .null else {
                // Every tool fits on one page, so no cursor was ever issued.
                return answerInline(request, target: target, .failure(.invalidParams("unknown cursor", field: "cursor")))
            }
            answerInline(request, target: target, .success(tools.listResult))
        case "tools/call":
            callToolOnReaderQueue(request, target: target, channel: channel)
        case "ping":
            answerInline(request, target: target, .success(.object([:])))
        case "rpc.discover":
            answerInline(request, target: target, .success(discovery))
        case "rpc.stats":
            answerInline(request, target: target, .success(statsOnReaderQueue()))
        default:
            guard let method = methods[request.method] else {
                return answerInline(request, target: target, .failure(.methodNotFound(request.method)))
            }
            startCallOnReaderQueue(request, method: method, target: target, channel: channel)
        }
    }

    // MARK: - Statistics

    /// The `rpc.stats` result: the counts of every registered method (a copy-on-write copy under
    /// the lock, so the walk over the histograms happens outside it; the next call that settles
    /// copies its method's slot once), then the server's sections. rpc.stats itself, like every
    /// built-in answered here, is not a call and is not counted.
    /// - Important: call on the reader queue.
    private func statsOnReaderQueue() -> JSONValue {
        dispatchPrecondition(condition: .onQueue(readerQueue))
        let table = inflight.withLock { $0.stats }
        let uptimeMs = Int((DispatchTime.now().uptimeNanoseconds - startNanos) / 1_000_000)
        return StatsReport.make(uptimeMs: uptimeMs, names: registry.names, table: table, sections: statsSections)
    }

    // MARK: - MCP

    /// The `initialize` result. With a `protocolVersion` the session becomes an MCP session and the
    /// answer is MCP's; without one (an LSP-style client) the answer is a minimal LSP-shaped
    /// `{capabilities: {}, serverInfo}` and the session stays plain JSON-RPC.
    private func initializeOnReaderQueue(_ params: JSONValue?) -> JSONValue {
        dispatchPrecondition(condition: .onQueue(readerQueue))
        var serverInfo: JSONObject = ["name": .string(identity.name), "version": .string(identity.version)]
        guard case .string(let requested)? = params?["protocolVersion"] else {
            return ["capabilities": [:], "serverInfo": .object(serverInfo)]
        }
        session.value.isMCP = true
        serverInfo.append("title", .string(identity.title))
        var result: JSONObject = [
            "protocolVersion": .string(MCPVersion.negotiate(requested: requested)),
            "capabilities": ["tools": ["listChanged": false]],
            "serverInfo": .object(serverInfo),
        ]
        if let instructions = identity.instructions { result.append("instructions", .string(instructions)) }
        return .object(result)
    }

    /// `tools/call {name, arguments, _meta?}`: runs the tool's method as a call like any other
    /// (deadline, cancellation, progress, exactly one reply), answering with an MCP tool result.
    /// Only an unknown tool or malformed params are JSON-RPC errors (-32602).
    private func callToolOnReaderQueue(_ request: Request, target: ReplyTarget, channel: ReplyChannel) {
        dispatchPrecondition(condition: .onQueue(readerQueue))
        guard case .object(let params)? = request.params else {
            return answerInline(request, target: target, .failure(.invalidParams("tools/call takes {name, arguments}")))
        }
        guard case .string(let name)? = params["name"] else {
            return answerInline(request, target: target, .failure(.invalidParams("'name' must be a string", field: "name")))
        }
        guard let methodName = tools.method(forTool: name), let method = methods[methodName] else {
            return answerInline(request, target: target, .failure(.invalidParams("Unknown tool: \(RPCError.abbreviated(name))", field: "name")))
        }
        var arguments: JSONObject
        switch params["arguments"] {
        case nil, .null?: arguments = [:]
        case .object(let object)?: arguments = object
        default: return answerInline(request, target: target, .failure(.invalidParams("'arguments' must be an object", field: "arguments")))
        }
        // The call's `_meta` (deadline, progress token) is that of tools/call itself.
        arguments["_meta"] = params["_meta"]
        let call = Request(id: request.id, method: methodName, params: .object(arguments))
        startCallOnReaderQueue(call, method: method, target: target, channel: channel, replyStyle: .mcpTool)
    }

    /// Whether the client opened an MCP session. - Important: call on the reader queue.
    package var isMCPSessionOnReaderQueue: Bool { session.value.isMCP }

    /// Answers `request` at once on the reader queue (nothing, for a notification).
    private func answerInline(_ request: Request, target: ReplyTarget, _ outcome: Result<JSONValue, RPCError>) {
        if let id = request.id { target.deliver(id: id, outcome.map(ResultJSON.value)) }
    }

    /// Cancels the call in flight with this id, if any. `silently`: it ends without a reply (MCP),
    /// unless it belongs to a batch, whose one reply needs every slot.
    private func cancelOnReaderQueue(_ idValue: JSONValue?, silently: Bool = false) {
        dispatchPrecondition(condition: .onQueue(readerQueue))
        guard let idValue, let id = RequestID(idValue), let call = inflight.withLock({ $0.byID[id] }) else { return }
        var sendsReply = true
        if silently, case .channel = call.target { sendsReply = false }
        call.settle(.failure(.cancelled(method: call.method)), sendsReply: sendsReply, ending: .clientCancel)
    }

    private func startCallOnReaderQueue(_ request: Request, method: ResolvedMethod, target: ReplyTarget, channel: ReplyChannel,
                                        replyStyle: ReplyStyle = .plain) {
        dispatchPrecondition(condition: .onQueue(readerQueue))
        let params: JSONValue?
        let meta: RequestMeta
        do {
            (params, meta) = try RequestMeta.split(request.params)
        } catch {
            return answerInline(request, target: target, .failure(error))
        }
        let deadlineMs = meta.deadlineMs(methodDeadlineMs: method.spec.deadlineMs)
        var progress: (token: JSONValue, channel: ReplyChannel, intervalMs: Int)?
        if let token = meta.progressToken, request.id != nil {
            progress = (token, channel, configuration.progressIntervalMs)
        }

        let call = Call(id: request.id, method: method.spec.name, statsSlot: method.statsSlot, deadlineMs: deadlineMs,
                        deadlineMessage: method.spec.deadlineMessage, target: target, replyStyle: replyStyle,
                        progress: progress, deadlines: deadlines, owner: self)
        let registered = inflight.withLock { table -> Bool in
            if let id = request.id {
                // Checked on arrival, and only this queue adds ids; kept as a guard, never a trap
                // (one hash of the id: the earlier call, if any, is put back).
                if let earlier = table.byID.updateValue(call, forKey: id) {
                    table.byID[id] = earlier
                    return false
                }
            } else {
                table.withoutID[ObjectIdentifier(call)] = call
            }
            table.stats.callStarted(slot: call.statsSlot)
            return true
        }
        if !registered, let id = request.id {
            // This call object is dropped unarmed and never replies.
            return target.deliverBody(Self.duplicateReply(id))
        }
        call.armDeadline()  // only once registered, so settling always finds it in the table
        var reporter: (@Sendable (Double, Double?, String?) -> Void)?
        if let emitter = call.progress {
            reporter = { progress, total, message in emitter.report(progress: progress, total: total, message: message) }
        }
        let context = CallContext(id: request.id, method: method.spec.name, cancellation: call.token, deadline: call.deadline,
                                  progressReporter: reporter)
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
        guard !call.token.isCancelled else { return release() }
        method.spec.invoke(params, context) { result in
            release()
            switch result {
            case .success(let value): call.settle(.success(value))
            case .failure(let error): call.fail(error)
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
        let latencyNanos = DispatchTime.now().uptimeNanoseconds &- call.startNanos
        let waiters = inflight.withLock { table -> [@Sendable () -> Void] in
            table.stats.callSettled(slot: call.statsSlot, errorCode: errorCode, ending: ending, latencyNanos: latencyNanos)
            if let id = call.id {
                // One hash of the id; an entry that is not this call's (never expected) stays.
                if let entry = table.byID.removeValue(forKey: id), entry !== call { table.byID[id] = entry }
            } else {
                table.withoutID[ObjectIdentifier(call)] = nil
            }
            if case .channel(let channel) = call.target, let body {
                if table.count == 0 {
                    directWrite = channel.sendWritingIfIdle(body)
                } else {
                    channel.send(body)
                }
            }
            return takeWaiters(&table)
        }
        directWrite?.perform()
        // A batch element's batch is still open (it counts as in flight), so no drain waiter can
        // run before the batch's reply is sent.
        if case .batch(let collector, let slot) = call.target, let body { collector.fill(slot: slot, with: body) }
        for action in waiters { readerQueue.async(execute: action) }
    }

    /// Takes the waiters whose condition now holds: capacity (at or below the resume threshold)
    /// and drained (nothing in flight). Call with the table locked; run them after unlocking.
    private func takeWaiters(_ table: inout InflightTable) -> [@Sendable () -> Void] {
        var ready: [@Sendable () -> Void] = []
        if table.count <= resumeThreshold, !table.capacityWaiters.isEmpty {
            ready += table.capacityWaiters
            table.capacityWaiters.removeAll()
        }
        if table.count == 0, !table.drainWaiters.isEmpty {
            ready += table.drainWaiters
            table.drainWaiters.removeAll()
        }
        return ready
    }
}

/// A method as the engine runs it: its spec, its concurrency gate (if it has a limit) and its
/// simulated latency (`--simulate-latency`, 0 if none). Immutable. A class, so that handing it to
/// a call's closures is one retain rather than a copy of the spec's dozen fields.
private final class ResolvedMethod: Sendable {
    let spec: MethodSpec
    let gate: ConcurrencyGate?
    let simulatedLatencyMs: Int
    /// Its index in the registry's `names`, and so in the engine's `CallStatsTable`.
    let statsSlot: Int

    init(spec: MethodSpec, gate: ConcurrencyGate?, simulatedLatencyMs: Int, statsSlot: Int) {
        self.spec = spec
        self.gate = gate
        self.simulatedLatencyMs = simulatedLatencyMs
        self.statsSlot = statsSlot
    }
}

/// What the engine knows about the session. Reader-queue state.
private struct SessionState {
    /// The client sent `initialize` with a `protocolVersion`.
    var isMCP = false
}
