/// Every method served as an MCP tool (`tools/list`), and the way back from a tool name to its
/// method. Built once from the same `MethodSpec`s as `rpc.discover` (one source of truth for
/// schemas, deadlines and scopes). Immutable; any thread.
struct MCPToolCatalog: Sendable {
    /// The `tools/list` result: every tool served, in registration order, on one page.
    let listResult: JSONValue
    /// Tool name → method name, for every registered method: a tool the server does not serve is
    /// still known, so that calling it is refused as its method is (an error result), not unknown.
    private let methodByTool: [String: String]

    /// `methods`: every registered method, in registration order; `serves` says which are listed.
    init(methods: [MethodSpec], serves: (MethodSpec) -> Bool) {
        var tools: [JSONValue] = []
        var methodByTool: [String: String] = [:]
        for spec in methods {
            let toolName = Self.toolName(for: spec.name)
            methodByTool[toolName] = spec.name
            if serves(spec) { tools.append(Self.describe(spec, as: toolName)) }
        }
        listResult = ["tools": .array(tools)]
        self.methodByTool = methodByTool
    }

    /// The method a tool runs, or nil for an unknown tool.
    func method(forTool name: String) -> String? { methodByTool[name] }

    /// Hosts reject dots in tool names: `catalog.get` is served as `catalog_get`.
    static func toolName(for method: String) -> String {
        String(method.map { $0 == "." ? "_" : $0 })
    }

    private static func describe(_ spec: MethodSpec, as toolName: String) -> JSONValue {
        var description = spec.summary.isEmpty ? spec.name : spec.summary
        description += " Deadline: \(spec.deadlineMs) ms (a call that passes it returns an error result"
        if let message = spec.deadlineMessage { description += " saying \"\(message)\"" }
        description += ")."
        let hints = spec.hints
        var annotations: JSONObject = ["readOnlyHint": .bool(hints.readOnly), "idempotentHint": .bool(hints.idempotent)]
        if !hints.readOnly { annotations.append("destructiveHint", .bool(hints.destructive)) }
        var meta: JSONObject = ["deadlineMs": .int(Int64(spec.deadlineMs)), "method": .string(spec.name)]
        if let scope = spec.scope { meta.append("scope", .string(scope)) }
        return [
            "name": .string(toolName),
            "title": .string(spec.name),
            "description": .string(description),
            "inputSchema": objectSchema(spec.paramsSchema),
            "outputSchema": objectSchema(spec.resultSchema),
            "annotations": .object(annotations),
            "_meta": .object(meta),
        ]
    }

    /// MCP wants object schemas; a schema without a type (the default `{}`) becomes one.
    private static func objectSchema(_ schema: JSONValue) -> JSONValue {
        guard case .object(var object) = schema else { return ["type": "object"] }
        if object["type"] == nil { object.append("type", "object") }
        return .object(object)
    }
}
