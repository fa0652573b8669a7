/// A named part of the `rpc.stats` result that the server computes at call time (see
/// `MethodRegistry.addStatsSection`). Immutable.
package struct StatsSection: Sendable {
    package let name: String
    /// Runs on the engine's reader queue for every `rpc.stats` call: quick, and must not block.
    package let snapshot: @Sendable () -> JSONValue
}
