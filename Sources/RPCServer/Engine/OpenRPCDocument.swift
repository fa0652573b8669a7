/// Builds the `rpc.discover` result: an OpenRPC 1.3.2 document of the built-ins and every method
/// served, with its params (each with the `description` of its schema), result schema, errors of
/// its own (`errors`: code, message, `data` with the `type` and the schemas of the other members),
/// deadline (`x-deadlineMs`), scope (`x-scope`) and hints (`x-hints`).
enum OpenRPCDocument {
    /// `served`: the methods the server serves, in registration order.
    static func make(methods served: [MethodSpec], title: String, version: String) -> JSONValue {
        var methods: [JSONValue] = [
            describe(name: "ping", summary: "Liveness check; answered ahead of queued work.", params: .object([:]),
                     result: ["type": "object"], deadlineMs: nil),
            describe(name: "rpc.discover", summary: "This document.", params: .object([:]), result: ["type": "object"], deadlineMs: nil),
            describe(name: "rpc.stats", summary: "Per-method counts and latency since start, and the server's own sections (protocol.md, section 6.2).",
                     params: .object([:]), result: StatsReport.resultSchema, deadlineMs: nil),
        ]
        for spec in served {
            methods.append(describe(name: spec.name, summary: spec.summary, params: spec.paramsSchema,
                                    result: spec.resultSchema, deadlineMs: spec.deadlineMs, scope: spec.scope,
                                    errors: spec.errors, hints: spec.hints))
        }
        return [
            "openrpc": "1.3.2",
            "info": ["title": .string(title), "version": .string(version)],
            "methods": .array(methods),
        ]
    }

    /// One method object; `params` is a JSON Schema of the params object, split into by-name descriptors.
    private static func describe(name: String, summary: String, params: JSONValue, result: JSONValue, deadlineMs: Int?,
                                 scope: String? = nil, errors: [MethodError] = [], hints: MethodHints? = nil) -> JSONValue {
        let required = Set(params["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        var descriptors: [JSONValue] = []
        for member in params["properties"]?.objectValue?.members ?? [] {
            var descriptor: JSONObject = ["name": .string(member.key)]
            if let description = member.value["description"] { descriptor.append("description", description) }
            descriptor.append("required", .bool(required.contains(member.key)))
            descriptor.append("schema", member.value)
            descriptors.append(.object(descriptor))
        }
        var method: JSONObject = [
            "name": .string(name),
            "summary": .string(summary),
            "paramStructure": "by-name",
            "params": .array(descriptors),
            "result": ["name": .string("\(name).result"), "schema": result],
        ]
        if !errors.isEmpty {
            method.append("errors", .array(errors.map { error in
                var data: JSONObject = ["type": .string(error.type)]
                if !error.data.isEmpty { data.append("members", .object(error.data)) }
                return ["code": .int(Int64(error.code.rawValue)), "message": .string(error.summary), "data": .object(data)]
            }))
        }
        if let deadlineMs { method.append("x-deadlineMs", .int(Int64(deadlineMs))) }
        if let scope { method.append("x-scope", .string(scope)) }
        if let hints {
            method.append("x-hints", ["readOnly": .bool(hints.readOnly), "destructive": .bool(hints.destructive),
                                      "idempotent": .bool(hints.idempotent)])
        }
        return .object(method)
    }
}
