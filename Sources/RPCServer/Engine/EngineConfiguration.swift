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

    public init() {}
}
