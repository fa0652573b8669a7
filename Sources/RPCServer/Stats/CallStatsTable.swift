/// How a call ended, as the statistics tell endings apart: its handler's result or error, its
/// deadline, a client's cancel, or shutdown.
enum CallEnding: Sendable {
    case handler
    case deadline
    case clientCancel
    case shutdown
}

/// What `rpc.stats` reports per method since the engine started. Counts are exact; `inFlight` is
/// `started - settled`, so `started == ok + Σ errors + inFlight` holds in every snapshot.
struct MethodCallStats: Sendable, Equatable {
    var started = 0
    var ok = 0
    /// Error replies by JSON-RPC error code, deadline expiries (-32001), cancels (-32800) and
    /// shutdown (-32002) included.
    var errors: [Int: Int] = [:]
    /// Calls ended by their deadline (a subset of `errors[-32001]`: a handler may answer -32001 itself).
    var deadlineExpiries = 0
    /// Calls ended by a client's cancel (`$/cancelRequest`, `notifications/cancelled`) before anything else.
    var cancels = 0
    /// From the call's registration to its settling, per settled call.
    var latency = LatencyHistogram()

    var settled: Int { latency.count }
    var inFlight: Int { started - settled }
}

/// The engine's per-method statistics, one slot per registered method (its index in the
/// registry's `names`). A value type without a lock of its own: the engine keeps it in its
/// in-flight table and updates it in the same locked step that registers or forgets a call, so
/// counting costs no extra lock, atomic or pass.
struct CallStatsTable: Sendable {
    private(set) var methods: [MethodCallStats]

    init(methodCount: Int) {
        methods = Array(repeating: MethodCallStats(), count: methodCount)
    }

    mutating func callStarted(slot: Int) {
        methods[slot].started += 1
    }

    /// Counts one settled call: `errorCode` nil for a result.
    mutating func callSettled(slot: Int, errorCode: Int?, ending: CallEnding, latencyNanos: UInt64) {
        methods[slot].latency.record(micros: latencyNanos / 1_000)
        guard let errorCode else {
            methods[slot].ok += 1
            return
        }
        methods[slot].errors[errorCode, default: 0] += 1
        switch ending {
        case .deadline: methods[slot].deadlineExpiries += 1
        case .clientCancel: methods[slot].cancels += 1
        case .handler, .shutdown: break
        }
    }
}
