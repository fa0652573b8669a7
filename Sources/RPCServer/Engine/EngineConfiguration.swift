/// Tunables of the engine; the command line maps onto these (see protocol.md, section 9).
///
/// ```swift
/// var options = try ServerOptions.parse(arguments)
/// options.engine.maxInflight = 64          // same as --max-inflight 64
/// ```
public struct EngineConfiguration: Sendable {
    /// Calls in flight before the transport stops reading.
    public var maxInflight = 1024
    /// Largest accepted message body.
    public var maxMessageBytes = 16 * 1024 * 1024
    /// Deepest JSON nesting accepted.
    public var maxDepth = JSONParser.defaultMaxDepth
    /// Handler delay per method (fault injection), in ms.
    public var simulatedLatencyMs: [String: Int] = [:]
    /// Period of progress heartbeats.
    public var progressIntervalMs = 1000
    /// How long shutdown waits for calls in flight before answering them with `ShuttingDown`.
    public var shutdownGraceMs = 2000
    /// The method scopes this server serves (`MethodSpec.scoped(_:)`); nil serves every method.
    /// With a set, a method is served only if its scope is in it, so a method declared without a
    /// scope is not served either: a restriction can only be stepped around by naming a scope.
    /// The engine's own methods (`ping`, `rpc.discover`, `rpc.stats`, cancellation, MCP's
    /// `initialize` and `tools/list`) have no scope and are always served.
    public var allowedScopes: Set<String>?

    public init() {}

    /// Whether this configuration serves `spec` (see `allowedScopes`).
    func serves(_ spec: MethodSpec) -> Bool {
        guard let allowedScopes else { return true }
        return spec.scope.map(allowedScopes.contains) ?? false
    }
}
