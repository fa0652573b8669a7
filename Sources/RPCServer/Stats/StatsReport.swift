/// Builds the `rpc.stats` result (protocol.md, section 6.2):
///
/// ```json
/// {"uptimeMs": 5321,
///  "methods": {"catalog.get": {"calls": 5, "ok": 3, "errors": {"1003": 1, "-32001": 1},
///                              "deadlineExpiries": 1, "cancels": 0, "inFlight": 0,
///                              "latencyMs": {"p50": 0.412, "p99": 20.48}}},
///  "sections": {"inventory": {…}}}
/// ```
///
/// Every method served appears, in registration order, with zero counts until called;
/// `latencyMs.p50`/`p99` are null until one of its calls has settled. Error codes are object keys,
/// so strings. Sections are computed now, in the order they were added.
enum StatsReport {
    /// `methods`: the methods served, each with its slot in `table`.
    static func make(uptimeMs: Int, methods served: [(name: String, slot: Int)], table: CallStatsTable,
                     sections: [StatsSection]) -> JSONValue {
        var methods = JSONObject()
        for (name, slot) in served {
            methods.append(name, method(table.methods[slot]))
        }
        var sectionsObject = JSONObject()
        for section in sections { sectionsObject[section.name] = section.snapshot() }
        return [
            "uptimeMs": .int(Int64(uptimeMs)),
            "methods": .object(methods),
            "sections": .object(sectionsObject),
        ]
    }

    /// JSON Schema of the result, for `rpc.discover`.
    static let resultSchema: JSONValue = [
        "type": "object",
        "required": ["uptimeMs", "methods", "sections"],
        "properties": [
            "uptimeMs": ["type": "integer"],
            "methods": ["type": "object", "additionalProperties": [
                "type": "object",
                "required": ["calls", "ok", "errors", "deadlineExpiries", "cancels", "inFlight", "latencyMs"],
                "properties": [
                    "calls": ["type": "integer"], "ok": ["type": "integer"],
                    "errors": ["type": "object", "additionalProperties": ["type": "integer"]],
                    "deadlineExpiries": ["type": "integer"], "cancels": ["type": "integer"], "inFlight": ["type": "integer"],
                    "latencyMs": ["type": "object", "properties": ["p50": ["type": ["number", "null"]], "p99": ["type": ["number", "null"]]]],
                ],
            ]],
            "sections": ["type": "object"],
        ],
    ]

    private static func method(_ stats: MethodCallStats) -> JSONValue {
        var errors = JSONObject()
        for (code, count) in stats.errors.sorted(by: { $0.key < $1.key }) {
            errors.append(String(code), .int(Int64(count)))
        }
        return [
            "calls": .int(Int64(stats.started)),
            "ok": .int(Int64(stats.ok)),
            "errors": .object(errors),
            "deadlineExpiries": .int(Int64(stats.deadlineExpiries)),
            "cancels": .int(Int64(stats.cancels)),
            "inFlight": .int(Int64(stats.inFlight)),
            "latencyMs": ["p50": milliseconds(stats.latency.quantileMicros(0.5)),
                          "p99": milliseconds(stats.latency.quantileMicros(0.99))],
        ]
    }

    private static func milliseconds(_ micros: UInt64?) -> JSONValue {
        micros.map { .double(Double($0) / 1_000) } ?? .null
    }
}
