import Dispatch

/// One method of the server: its name, params and result schemas (for `rpc.discover`), deadline,
/// the message to send when the deadline passes, an optional concurrency limit, and a handler.
///
/// Handlers come in three first-class styles, `async`, completion-handler and synchronous; all
/// receive typed, already validated params (`Decodable`, decoded once from the parsed message, with `_meta`
/// removed) and a `CallContext`. A handler's result or error may arrive at any time from any
/// thread: the engine delivers at most one reply per request whatever else happened first.
///
/// ```swift
/// struct Greet: Decodable, Sendable { var name: String }
/// let greet = MethodSpec.async("hello.greet", params: Greet.self, deadlineMs: 1_000,
///                              summary: "Greets someone by name.") { params, _ in
///     ["greeting": .string("Hello, \(params.name)!")] as JSONValue
/// }
/// ```
public struct MethodSpec: Sendable {
    /// Completion of the type-erased handler: the encoded result or the error.
    package typealias Completion = @Sendable (Result<ResultJSON, any Error>) -> Void
    typealias Invoker = @Sendable (JSONValue?, CallContext, @escaping Completion) -> Void
    /// A type-erased synchronous handler: the encoded result, or throws.
    typealias SynchronousInvoker = @Sendable (JSONValue?, CallContext) throws -> ResultJSON

    /// How the engine runs the handler once the call has started where `executor` says.
    enum Handler: Sendable {
        /// It calls a completion, once, from any thread.
        case completion(Invoker)
        /// It returns (or throws) on the thread that runs it: no completion closure to make.
        case synchronous(SynchronousInvoker)
    }

    public let name: String
    public var deadlineMs: Int
    /// The error message when the deadline passes; nil means "<method> did not complete within N ms".
    public var deadlineMessage: String?
    /// At most this many handlers of this method run at once; the rest wait (their deadlines run).
    public var concurrencyLimit: Int?
    public var summary: String
    /// What the method does to the world, for hosts that list methods as tools (MCP).
    public var hints = MethodHints()
    /// Who may call it: a server whose `EngineConfiguration.allowedScopes` does not include this
    /// scope does not serve the method (see `scoped(_:)`). Nil: the method has no scope, and is
    /// served only when the server restricts nothing (`allowedScopes` nil).
    public var scope: String?
    /// How a call that passes its deadline or is cancelled is answered: at once (the default), or
    /// once its work has stopped, with its result if the work was done (see `answeringInterruptionsAfterWorkStops()`).
    public var interruptionReply = InterruptionReply.immediately
    /// The errors of its own it may answer with, for `rpc.discover` (see `answering(errors:)`).
    public var errors: [MethodError] = []
    public var paramsSchema: JSONValue
    public var resultSchema: JSONValue
    /// Where the handler starts: nil means the engine's concurrent work queue. A method whose work
    /// belongs on queues of its own (a store's read lanes, say) names them here and saves a hop.
    public var executor: (@Sendable (@escaping @Sendable () -> Void) -> Void)?
    let handler: Handler

    public static let defaultDeadlineMs = 30_000

    init(name: String, deadlineMs: Int, deadlineMessage: String?, concurrencyLimit: Int?, summary: String,
         paramsSchema: JSONValue, resultSchema: JSONValue, handler: Handler) {
        self.name = name
        self.deadlineMs = deadlineMs
        self.deadlineMessage = deadlineMessage
        self.concurrencyLimit = concurrencyLimit
        self.summary = summary
        self.paramsSchema = paramsSchema
        self.resultSchema = resultSchema
        self.handler = handler
    }

    /// This method with the given hints (MCP tool annotations).
    ///
    /// ```swift
    /// let get = MethodSpec.async("notes.get", params: NoteID.self) { id, _ in try notes.get(id) }.hinting(.readOnly)
    /// ```
    public func hinting(_ hints: MethodHints) -> MethodSpec {
        var copy = self
        copy.hints = hints
        return copy
    }

    /// This method in `scope`: served only while the server's `EngineConfiguration.allowedScopes`
    /// includes it (or is nil). Otherwise a call is answered -32601 with `data.scope` naming the
    /// scope and runs no handler, on every framing, in batches and as an MCP tool call, and the
    /// method is left out of `rpc.discover`, `rpc.stats` and `tools/list`.
    ///
    /// ```swift
    /// let list = MethodSpec.async("notes.list", params: NoParams.self) { _, _ in notes }.scoped("read")
    /// let add = MethodSpec.async("notes.add", params: Note.self) { note, _ in try save(note) }.scoped("write")
    /// var options = try ServerOptions.parse(arguments)
    /// options.engine.allowedScopes = ["read"]    // a read-only server: notes.add is -32601
    /// ```
    public func scoped(_ scope: String) -> MethodSpec {
        var copy = self
        copy.scope = scope
        return copy
    }

    /// This method with the errors of its own it may answer with, listed in `rpc.discover`
    /// (OpenRPC's `errors`), so that a client can be generated with a class for each.
    ///
    /// ```swift
    /// let get = MethodSpec.async("notes.get", params: NoteID.self) { id, _ in try notes.get(id) }
    ///     .answering(errors: [MethodError(code: 1001, type: "NotFound", summary: "No note has this id.")])
    /// ```
    public func answering(errors: [MethodError]) -> MethodSpec {
        var copy = self
        copy.errors = errors
        return copy
    }

    /// This method with interrupted calls answered once their work has stopped
    /// (`InterruptionReply.afterWorkStops`): a deadline, a client's cancel or shutdown fires the
    /// call's token, and the reply is the handler's result if it completed the work anyway, or
    /// the -32001, -32800 or -32002 error if it failed, never an error for work that was done.
    /// The handler must stop promptly once the token fires (a database write rolls back).
    ///
    /// ```swift
    /// let save = MethodSpec.callback("notes.save", params: Note.self) { note, context, done in
    ///     store.save(note, interruptedBy: context.cancellation, completion: done)  // rolls back if cancelled in time
    /// }.answeringInterruptionsAfterWorkStops()
    /// ```
    public func answeringInterruptionsAfterWorkStops() -> MethodSpec {
        var copy = self
        copy.interruptionReply = .afterWorkStops
        return copy
    }

    /// This method with its handler started by `executor` instead of the engine's work queue.
    ///
    /// ```swift
    /// let storeQueue = DispatchQueue(label: "store")
    /// let read = MethodSpec.callback("notes.read", params: NoteID.self) { id, _, done in done(store.read(id)) }
    ///     .startingOn { work in storeQueue.async(execute: work) }
    /// ```
    public func startingOn(_ executor: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) -> MethodSpec {
        var copy = self
        copy.executor = executor
        return copy
    }

    /// The message of a deadline error: the method's own (`custom`), or the default
    /// "<method> did not complete within N ms".
    static func deadlineExceededMessage(custom: String?, method: String, deadlineMs: Int) -> String {
        custom ?? "\(method) did not complete within \(deadlineMs) ms"
    }

    // MARK: - async handlers

    /// A method whose handler is `async`. It runs as a `Task`; the call's deadline or cancellation
    /// cancels that task (`Task.isCancelled`, `Task.checkCancellation()` and cancellable sleeps see it).
    ///
    /// ```swift
    /// .async("hello.slow", params: NoParams.self, deadlineMs: 200,
    ///        deadlineMessage: "hello.slow is slow today, try again later") { _, _ in
    ///     try await Task.sleep(for: .seconds(5))   // cancelled at 200 ms; the client gets -32001
    ///     return EmptyResult()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: the JSON-RPC method name (`hello.greet`; the MCP tool is `hello_greet`).
    ///   - params: the `Decodable` params type; params that do not fit are answered with -32602.
    ///   - deadlineMs: the call's deadline (clients may shorten it with `_meta.deadlineMs`).
    ///   - deadlineMessage: the -32001 error's message; nil for "<name> did not complete within N ms".
    ///   - concurrencyLimit: at most this many handlers run at once; nil for no limit.
    ///   - summary: one sentence for `rpc.discover` and the MCP tool's description.
    ///   - paramsSchema: JSON Schema of the params (`rpc.discover`, MCP `inputSchema`).
    ///   - resultSchema: JSON Schema of the result (`rpc.discover`, MCP `outputSchema`).
    ///   - handler: returns the result or throws (`RPCError`, `RPCErrorConvertible`, or anything: -32603).
    public static func async<Params: Decodable & Sendable, Result: Encodable & Sendable>(
        _ name: String,
        params: Params.Type = Params.self,
        deadlineMs: Int = defaultDeadlineMs,
        deadlineMessage: String? = nil,
        concurrencyLimit: Int? = nil,
        summary: String = "",
        paramsSchema: JSONValue = .object([:]),
        resultSchema: JSONValue = .object([:]),
        handler: @escaping @Sendable (Params, CallContext) async throws -> Result
    ) -> MethodSpec {
        typed(name, Params.self, deadlineMs: deadlineMs, deadlineMessage: deadlineMessage, concurrencyLimit: concurrencyLimit,
              summary: summary, paramsSchema: paramsSchema, resultSchema: resultSchema) { [encoder = TypedCoding.encoder(for: Result.self)] params, context, completion in
            let task = Task {
                do {
                    let result = try await handler(params, context)
                    completion(.success(try encoder.value(result)))
                } catch {
                    completion(.failure(error))
                }
            }
            context.cancellation.onCancel { task.cancel() }
        }
    }

    // MARK: - Completion-handler handlers

    /// A method whose handler calls `completion` once, from any thread, when done. The handler
    /// starts on the engine's concurrent work queue (or the spec's `executor`) and must watch
    /// `context.cancellation`. Parameters as for `async`.
    ///
    /// ```swift
    /// .callback("hello.later", params: NoParams.self, deadlineMs: 500) { _, context, done in
    ///     let timer = DispatchWorkItem { done(.success(["greeting": "Hello, later!"] as JSONValue)) }
    ///     context.cancellation.onCancel { timer.cancel() }
    ///     DispatchQueue.global().asyncAfter(deadline: .now() + 0.1, execute: timer)
    /// }
    /// ```
    public static func callback<Params: Decodable & Sendable, Result: Encodable & Sendable>(
        _ name: String,
        params: Params.Type = Params.self,
        deadlineMs: Int = defaultDeadlineMs,
        deadlineMessage: String? = nil,
        concurrencyLimit: Int? = nil,
        summary: String = "",
        paramsSchema: JSONValue = .object([:]),
        resultSchema: JSONValue = .object([:]),
        handler: @escaping @Sendable (Params, CallContext, @escaping @Sendable (Swift.Result<Result, any Error>) -> Void) -> Void
    ) -> MethodSpec {
        typed(name, Params.self, deadlineMs: deadlineMs, deadlineMessage: deadlineMessage, concurrencyLimit: concurrencyLimit,
              summary: summary, paramsSchema: paramsSchema, resultSchema: resultSchema) { [encoder = TypedCoding.encoder(for: Result.self)] params, context, completion in
            handler(params, context) { outcome in
                switch outcome {
                case .success(let value): completion(Swift.Result { try encoder.value(value) })
                case .failure(let error): completion(.failure(error))
                }
            }
        }
    }
}

extension MethodSpec {
    // MARK: - Synchronous handlers

    /// A method whose handler returns its result (or throws) on the thread that runs it: the
    /// engine's concurrent work queue, or the spec's `executor`. For short work that may block
    /// that thread briefly, such as a read of a local database, which `context.cancellation` must
    /// be able to stop. Cheaper per call than `callback`: no completion closure is made. Parameters
    /// as for `async`.
    ///
    /// ```swift
    /// .synchronous("notes.get", params: NoteID.self, deadlineMs: 1_000) { id, context in
    ///     try store.note(id, interruptedBy: context.cancellation)
    /// }
    /// ```
    public static func synchronous<Params: Decodable & Sendable, Result: Encodable & Sendable>(
        _ name: String,
        params: Params.Type = Params.self,
        deadlineMs: Int = defaultDeadlineMs,
        deadlineMessage: String? = nil,
        concurrencyLimit: Int? = nil,
        summary: String = "",
        paramsSchema: JSONValue = .object([:]),
        resultSchema: JSONValue = .object([:]),
        handler: @escaping @Sendable (Params, CallContext) throws -> Result
    ) -> MethodSpec {
        let decoder = TypedCoding.decoder(for: Params.self)
        let encoder = TypedCoding.encoder(for: Result.self)
        return MethodSpec(name: name, deadlineMs: deadlineMs, deadlineMessage: deadlineMessage, concurrencyLimit: concurrencyLimit,
                          summary: summary, paramsSchema: paramsSchema, resultSchema: resultSchema,
                          handler: .synchronous { rawParams, context in
                              try encoder.value(handler(try decoder.value(rawParams), context))
                          })
    }

    /// The shared start of the `async` and completion-handler styles: decode the params (a -32602 naming the field if
    /// they do not fit `Params`; see `TypedCoding`), then run `start` with them.
    private static func typed<Params: Decodable & Sendable>(
        _ name: String, _ type: Params.Type, deadlineMs: Int, deadlineMessage: String?, concurrencyLimit: Int?,
        summary: String, paramsSchema: JSONValue, resultSchema: JSONValue,
        start: @escaping @Sendable (Params, CallContext, @escaping Completion) -> Void
    ) -> MethodSpec {
        let decoder = TypedCoding.decoder(for: Params.self)
        return MethodSpec(name: name, deadlineMs: deadlineMs, deadlineMessage: deadlineMessage, concurrencyLimit: concurrencyLimit,
                          summary: summary, paramsSchema: paramsSchema, resultSchema: resultSchema,
                          handler: .completion { rawParams, context, completion in
                              let params: Params
                              do {
                                  params = try decoder.value(rawParams)
                              } catch {
                                  return completion(.failure(error))
                              }
                              start(params, context, completion)
                          })
    }
}

/// Params for methods that take none (any object or absent params is accepted).
///
/// ```swift
/// .async("hello.ping", params: NoParams.self) { _, _ in EmptyResult() }
/// ```
public struct NoParams: Decodable, Sendable {
    public init() {}
    public init(from decoder: any Decoder) throws {}
}

/// An empty JSON object result (`{}`); see `NoParams` for an example.
public struct EmptyResult: Codable, Sendable, Equatable {
    public init() {}
}
