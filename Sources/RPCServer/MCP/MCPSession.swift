import Dispatch

/// The engine's MCP side (protocol.md, section 6.1): whether the client opened an MCP session,
/// the `initialize` answer, the tool list, and a `tools/call` turned into the call it asks for.
/// The session flag is reader-queue state: every method whose name says so runs on the engine's
/// reader queue (checked).
final class MCPSession: Sendable {
    private let identity: ServerIdentity
    private let tools: MCPToolCatalog
    /// The client sent `initialize` with a `protocolVersion`.
    private let opened: QueueBound<Bool>

    init(identity: ServerIdentity, tools: MCPToolCatalog, readerQueue: DispatchQueue) {
        self.identity = identity
        self.tools = tools
        opened = QueueBound(false, queue: readerQueue)
    }

    /// Whether the client opened an MCP session. - Important: call on the reader queue.
    var isOpenOnReaderQueue: Bool { opened.value }

    /// The `initialize` result. With a `protocolVersion` the session becomes an MCP session and the
    /// answer is MCP's; without one (an LSP-style client) the answer is a minimal LSP-shaped
    /// `{capabilities: {}, serverInfo}` and the session stays plain JSON-RPC.
    /// - Important: call on the reader queue.
    func initializeOnReaderQueue(_ params: JSONValue?) -> JSONValue {
        dispatchPrecondition(condition: .onQueue(opened.queue))
        var serverInfo: JSONObject = ["name": .string(identity.name), "version": .string(identity.version)]
        guard case .string(let requested)? = params?["protocolVersion"] else {
            return ["capabilities": [:], "serverInfo": .object(serverInfo)]
        }
        opened.value = true
        serverInfo.append("title", .string(identity.title))
        var result: JSONObject = [
            "protocolVersion": .string(MCPVersion.negotiate(requested: requested)),
            "capabilities": ["tools": ["listChanged": false]],
            "serverInfo": .object(serverInfo),
        ]
        if let instructions = identity.instructions { result.append("instructions", .string(instructions)) }
        return .object(result)
    }

    /// The `tools/list` result. Every tool fits on one page, so no cursor was ever issued: any
    /// cursor is invalid. Stateless.
    func toolsList(_ params: JSONValue?) -> Result<JSONValue, RPCError> {
        let cursor = params?["cursor"]
        guard cursor == nil || cursor == .null else { return .failure(.invalidParams("unknown cursor", field: "cursor")) }
        return .success(tools.listResult)
    }

    /// What a `tools/call` asks for: a call of the tool's method, or the refusal of a method this
    /// server does not serve (answered as an error result, like the method's own errors).
    enum ToolCall {
        case start(Request, ResolvedMethod)
        case refused(RPCError)
    }

    /// `tools/call {name, arguments, _meta?}` as the request it runs: the tool's method with the
    /// arguments as params, and `_meta` (deadline, progress token) that of tools/call itself.
    /// Only an unknown tool or malformed params are errors (-32602). Stateless.
    func toolCall(_ request: Request, routes: RouteTable) -> Result<ToolCall, RPCError> {
        guard case .object(let params)? = request.params else {
            return .failure(.invalidParams("tools/call takes {name, arguments}"))
        }
        guard case .string(let name)? = params["name"] else {
            return .failure(.invalidParams("'name' must be a string", field: "name"))
        }
        guard let methodName = tools.method(forTool: name), let route = routes.method(named: methodName) else {
            return .failure(.invalidParams("Unknown tool: \(RPCError.abbreviated(name))", field: "name"))
        }
        guard case .method(let method) = route else {
            if case .refused(let error) = route { return .success(.refused(error)) }
            return .failure(.invalidParams("Unknown tool: \(RPCError.abbreviated(name))", field: "name"))
        }
        var arguments: JSONObject
        switch params["arguments"] {
        case nil, .null?: arguments = [:]
        case .object(let object)?: arguments = object
        default: return .failure(.invalidParams("'arguments' must be an object", field: "arguments"))
        }
        arguments["_meta"] = params["_meta"]
        return .success(.start(Request(id: request.id, method: methodName, params: .object(arguments)), method))
    }
}
