import Dispatch

/// One method of the server: its name, params and result schemas (for `rpc.discover`), deadline,
/// the message to send when the deadline passes, an optional concurrency limit, and a handler.
///
/// Handlers come in two first-class styles, `async` and completion-handler; both receive typed,
/// already validated params (`Decodable`, decoded once from the parsed message, with `_meta`
/// removed) and a `CallContext`. A handler's result or error may arrive at any time from any
/// thread: the engine delivers at most one reply per request whatever else happened first.
public struct MethodSpec: Sendable {
    /// Completion of the type-erased handler: the encoded result or the error.
    public typealias Completion = @Sendable (Result<JSONValue, any Error>) -> Void
    typealias Invoker = @Sendable (JSONValue?, CallContext, @escaping Completion) -> Void

    public let name: String
    public var deadlineMs: Int
    /// The error message when the deadline passes; nil means "<method> did not complete within N ms".
    public var deadlineMessage: String?
    /// At most this many handlers of this method run at once; the rest wait (their deadlines run).
    public var concurrencyLimit: Int?
    public var summary: String
    /// What the method does to the world, for hosts that list methods as tools (MCP).
    public var hints = MethodHints()
    public var paramsSchema: JSONValue
    public var resultSchema: JSONValue
    /// Where the handler starts: nil means the engine's concurrent work queue. A method whose work
    /// belongs on queues of its own (a store's read lanes, say) names them here and saves a hop.
    public var executor: (@Sendable (@escaping @Sendable () -> Void) -> Void)?
    let invoke: Invoker

    public static let defaultDeadlineMs = 30_000

    init(name: String, deadlineMs: Int, deadlineMessage: String?, concurrencyLimit: Int?, summary: String,
         paramsSchema: JSONValue, resultSchema: JSONValue, invoke: @escaping Invoker) {
        self.name = name
        self.deadlineMs = deadlineMs
        self.deadlineMessage = deadlineMessage
        self.concurrencyLimit = concurrencyLimit
        self.summary = summary
        self.paramsSchema = paramsSchema
        self.resultSchema = resultSchema
        self.invoke = invoke
    }

    /// This method with the given hints (MCP tool annotations).
    public func hinting(_ hints: MethodHints) -> MethodSpec {
        var copy = self
        copy.hints = hints
        return copy
    }

    /// This method with its handler started by `executor` instead of the engine's work queue.
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
              summary: summary, paramsSchema: paramsSchema, resultSchema: resultSchema) { params, context, completion in
            let task = Task {
                do {
                    let result = try await handler(params, context)
                    completion(.success(try JSONValueEncoder().encode(result)))
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
    /// `context.cancellation`.
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
              summary: summary, paramsSchema: paramsSchema, resultSchema: resultSchema) { params, context, completion in
            handler(params, context) { result in
                completion(result.flatMap { value in
                    Swift.Result { try JSONValueEncoder().encode(value) }
                })
            }
        }
    }
}

extension MethodSpec {
    /// The shared start of both handler styles: decode the params (a -32602 naming the field if
    /// they do not fit `Params`), then run `start` with them.
    private static func typed<Params: Decodable & Sendable>(
        _ name: String, _ type: Params.Type, deadlineMs: Int, deadlineMessage: String?, concurrencyLimit: Int?,
        summary: String, paramsSchema: JSONValue, resultSchema: JSONValue,
        start: @escaping @Sendable (Params, CallContext, @escaping Completion) -> Void
    ) -> MethodSpec {
        MethodSpec(name: name, deadlineMs: deadlineMs, deadlineMessage: deadlineMessage, concurrencyLimit: concurrencyLimit,
                   summary: summary, paramsSchema: paramsSchema, resultSchema: resultSchema) { rawParams, context, completion in
            let params: Params
            do {
                params = try ParamsDecoding.decode(Params.self, from: rawParams)
            } catch {
                return completion(.failure(error))
            }
            start(params, context, completion)
        }
    }
}

/// Params for methods that take none (any object or absent params is accepted).
public struct NoParams: Decodable, Sendable {
    public init() {}
    public init(from decoder: any Decoder) throws {}
}

/// An empty JSON object result (`{}`).
public struct EmptyResult: Codable, Sendable, Equatable {
    public init() {}
}
