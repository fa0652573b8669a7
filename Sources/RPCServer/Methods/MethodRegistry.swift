/// The server's method table: name → `MethodSpec`, with command-line deadline overrides applied.
/// Built once before serving, then read-only (`Sendable`, lock-free reads from any queue). Every
/// method is served as JSON-RPC and, in an MCP session, as a tool named with `_` for `.`.
///
/// ```swift
/// var registry = MethodRegistry([greet, slow])
/// registry.register(.async("hello.ping", params: NoParams.self) { _, _ in EmptyResult() })
/// ```
public struct MethodRegistry: Sendable {
    public private(set) var methods: [String: MethodSpec] = [:]
    /// Names in registration order (for `rpc.discover`).
    public private(set) var names: [String] = []

    public init(_ specs: [MethodSpec] = []) {
        for spec in specs { register(spec) }
    }

    /// Adds or replaces a method.
    public mutating func register(_ spec: MethodSpec) {
        if methods[spec.name] == nil { names.append(spec.name) }
        methods[spec.name] = spec
    }

    /// Replaces the deadline of `method`; returns false if there is no such method.
    @discardableResult
    public mutating func overrideDeadline(_ method: String, milliseconds: Int) -> Bool {
        guard methods[method] != nil else { return false }
        methods[method]!.deadlineMs = milliseconds
        return true
    }

    public subscript(name: String) -> MethodSpec? { methods[name] }
}
