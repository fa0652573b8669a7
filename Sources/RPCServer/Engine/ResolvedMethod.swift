/// A method as the engine runs it: its spec, its concurrency gate (if it has a limit) and its
/// simulated latency (`--simulate-latency`, 0 if none). Immutable. A class, so that handing it to
/// a call's closures is one retain rather than a copy of the spec's dozen fields.
final class ResolvedMethod: Sendable {
    let spec: MethodSpec
    let gate: ConcurrencyGate?
    let simulatedLatencyMs: Int
    /// Its index in the registry's `names`, and so in the engine's `CallStatsTable`.
    let statsSlot: Int

    init(spec: MethodSpec, gate: ConcurrencyGate?, simulatedLatencyMs: Int, statsSlot: Int) {
        self.spec = spec
        self.gate = gate
        self.simulatedLatencyMs = simulatedLatencyMs
        self.statsSlot = statsSlot
    }
}
