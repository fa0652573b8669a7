import Dispatch
import Synchronization
import SharedSupport

/// The transport-independent JSON-RPC 2.0 engine: it takes decoded messages in arrival order on its
/// serial **reader queue**, answers built-ins and control messages there, and runs every other
/// request as a `Call` on the concurrent **work queue**, with its deadline on the **timer queue**.
/// Replies and notifications leave through a `ReplyChannel`, on the queue the caller chose.
///
/// Guarantees: exactly one reply per request id; a cancel never overtakes the request it names
/// (both are handled in arrival order on the reader queue); a slow call never delays a fast one;
/// batch replies keep request order. Thread-safe; entry points state their queue.
///
/// Its jobs, one file each: routing and capacity (here), batches (`RPCEngine+Batches`), the
/// built-ins (`RPCEngine+BuiltIns`, with MCP's side in `MCPSession`), and running calls
/// (`RPCEngine+Calls`); the bookkeeping of what is in flight is `InflightTable`'s.
package final class RPCEngine: Sendable, CallOwner {
    package let readerQueue: DispatchQueue
    package let workQueue: DispatchQueue
    package let timerQueue: DispatchQueue
    package let configuration: EngineConfiguration
    package let registry: MethodRegistry
    package let identity: ServerIdentity

    /// The default queue for completions of `submit` when the caller does not inject one.
    package static let defaultCallbackQueue = DispatchQueue(label: "RPCServer.callbacks")

    /// Every method name the engine answers, resolved once so routing a request hashes its name once.
    let routes: RouteTable
    let deadlines: DeadlineScheduler
    let discovery: JSONValue
    let mcp: MCPSession
    /// The methods `rpc.stats` reports (those served, with their slots), the server's own
    /// sections, and when the engine started (for `uptimeMs`).
    let statsMethods: [(name: String, slot: Int)]
    let statsSections: [StatsSection]
    let startNanos = Uptime.nowNanos
    let inflight: Locked<InflightTable>
    /// `inflight`'s count, stored under its lock whenever it changes, so the reader can ask for it
    /// once per frame without taking that lock (which the threads that settle calls contend for).
    let inflightCountMirror = Atomic<Int>(0)
    /// The route `routeOnReaderQueue(_:)` looked up last, with its method name.
    private let lastRoute: QueueBound<(name: String, route: RouteTable.Route?)?>

    /// In-flight calls at or below which a paused reader resumes: hysteresis, so a full pipeline
    /// wakes the reader once per quarter of the limit rather than once per completed call.
    package let resumeThreshold: Int

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
        workQueue = DispatchQueue(label: "RPCServer.work", qos: .userInitiated, attributes: .concurrent)
        timerQueue = DispatchQueue(label: "RPCServer.timer", qos: .userInteractive)
        deadlines = DeadlineScheduler(queue: timerQueue)
        var methods: [ResolvedMethod] = []
        let workQueue = workQueue
        for (slot, name) in registry.names.enumerated() {
            guard let spec = registry[name] else { continue }
            let gate = spec.concurrencyLimit.map { limit in
                ConcurrencyGate(limit: limit, schedule: spec.executor ?? { [workQueue] in workQueue.async(execute: $0) })
            }
            methods.append(ResolvedMethod(spec: spec, gate: gate, simulatedLatencyMs: configuration.simulatedLatencyMs[name] ?? 0,
                                          statsSlot: slot))
        }
        routes = RouteTable(methods: methods, serves: configuration.serves)
        resumeThreshold = max(0, configuration.maxInflight - max(1, configuration.maxInflight / 4))
        inflight = Locked(InflightTable(methodCount: registry.names.count, resumeThreshold: resumeThreshold))
        lastRoute = QueueBound(nil, queue: readerQueue)
        statsSections = registry.statsSections
        let served = methods.filter { configuration.serves($0.spec) }
        statsMethods = served.map { ($0.spec.name, $0.statsSlot) }
        discovery = OpenRPCDocument.make(methods: served.map(\.spec), title: identity.title, version: identity.version)
        mcp = MCPSession(identity: identity, tools: MCPToolCatalog(methods: methods.map(\.spec), serves: configuration.serves),
                         readerQueue: readerQueue)
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
            guard let id = request.id else { return routeOnReaderQueue(request, target: .none, channel: channel) }
            let route = routeOnReaderQueue(request.method)
            if case .method(let method)? = route {
                // Its id is checked as the call registers: one lock for both.
                return startCallOnReaderQueue(request, method: method, target: .channel(channel), channel: channel,
                                              idCheckedOnArrival: false)
            }
            if inflight.withLock({ $0.isInUse(id) }) {
                return channel.send(Self.duplicateReply(id))
            }
            answer(request, by: route, target: .channel(channel), channel: channel)
        case .batch(let elements):
            receiveBatchOnReaderQueue(elements, channel: channel)
        }
    }

    /// Sends a request where its method leads: a built-in answered here, a registered method
    /// started as a call, or -32601 (an unknown method, or one outside the allowed scopes, which
    /// does no work). - Important: call on the reader queue.
    func routeOnReaderQueue(_ request: Request, target: ReplyTarget, channel: ReplyChannel) {
        debugCheckOnQueue(readerQueue)
        answer(request, by: routeOnReaderQueue(request.method), target: target, channel: channel)
    }

    /// The route of `method`: the last one looked up, if it has the same name (a client calling one
    /// method over and over compares two short strings instead of hashing one), else the table's.
    /// - Important: call on the reader queue.
    func routeOnReaderQueue(_ method: String) -> RouteTable.Route? {
        debugCheckOnQueue(readerQueue)
        if let last = lastRoute.value, last.name == method { return last.route }
        let route = routes[method]
        lastRoute.value = (method, route)
        return route
    }

    /// Starts or answers `request` as its route says. - Important: call on the reader queue.
    private func answer(_ request: Request, by route: RouteTable.Route?, target: ReplyTarget, channel: ReplyChannel) {
        switch route {
        case .method(let method)?:
            startCallOnReaderQueue(request, method: method, target: target, channel: channel)
        case .builtIn(let builtIn)?:
            answerOnReaderQueue(builtIn, request, target: target, channel: channel)
        case .refused(let error)?:
            answerInline(request, target: target, .failure(error))
        case nil:
            answerInline(request, target: target, .failure(.methodNotFound(request.method)))
        }
    }

    /// Answers `request` at once (nothing, for a notification), framed as `style` says.
    func answerInline(_ request: Request, target: ReplyTarget, _ outcome: Result<JSONValue, RPCError>, style: ReplyStyle = .plain) {
        if let id = request.id { target.deliver(id: id, style.reply(for: outcome.map(ResultJSON.value))) }
    }

    /// The reply to a request whose id is in use: id null, since the id belongs to the earlier
    /// request, which still gets its own one reply; `data.id` names the duplicate.
    static func duplicateReply(_ id: RequestID) -> [UInt8] {
        ReplyEncoder.error(id: .null, error: .duplicateID(id))
    }

    // MARK: - Capacity and lifecycle

    /// Calls in flight (requests and notifications whose handlers have not settled), plus batches
    /// whose reply has not been sent. Read without the table's lock: on the reader queue, which
    /// alone adds calls, it is exact or (a settle not yet published) too high, never too low.
    package var inflightCount: Int { inflightCountMirror.load(ordering: .acquiring) }

    /// Whether another call may start without exceeding `maxInflight`.
    package var hasCapacity: Bool { inflightCount < configuration.maxInflight }

    /// Runs `body` on the in-flight table under its lock and publishes the table's count after it.
    func updatingInflight<T>(_ body: (inout InflightTable) -> T) -> T {
        inflight.withLock { table in
            let result = body(&table)
            inflightCountMirror.store(table.count, ordering: .releasing)
            return result
        }
    }

    /// Runs `action` on the reader queue once in-flight calls are at or below `resumeThreshold`
    /// (at once if they are).
    package func notifyWhenCapacityAvailable(_ action: @escaping @Sendable () -> Void) {
        if inflight.withLock({ $0.waitForCapacity(action) }) { readerQueue.async(execute: action) }
    }

    /// Runs `action` on the reader queue once no call is in flight (at once if none is).
    package func notifyWhenDrained(_ action: @escaping @Sendable () -> Void) {
        if inflight.withLock({ $0.waitForDrain(action) }) { readerQueue.async(execute: action) }
    }

    /// Ends every call still in flight: requests are answered with `ShuttingDown`, notifications end
    /// silently; the work of both is cancelled. A call of a method answered `.afterWorkStops`
    /// whose handler runs is answered when its work stops (its result if that work was done).
    /// Thread-safe.
    package func abortAllInflight() {
        for call in inflight.withLock({ $0.calls }) { call.interrupt(.shutdown) }
    }

    /// Whether the client opened an MCP session. - Important: call on the reader queue.
    package var isMCPSessionOnReaderQueue: Bool { mcp.isOpenOnReaderQueue }
}
