import SharedSupport

// MARK: - InventoryCircuitBreaker

/// Stops asking an inventory service that keeps failing, and probes it until it answers again.
///
/// - **Closed** (normal): every check is sent. `failureThreshold` failures in a row (refused,
///   lost, non-200, malformed, or a request its check's deadline cut off) open the circuit.
/// - **Open** for `coolDownMilliseconds`: checks are refused at once (`admit` says for how much
///   longer), so a service that is down costs a check nothing and gets no load.
/// - **Half-open** after the cool-down: the next check is sent as a single probe while the others
///   are still refused; its success closes the circuit, its failure opens it for another
///   cool-down. A probe that ends without a verdict (cancelled by its client) lets the next check
///   probe instead.
///
/// Thread-safe: one lock; the clock is injected (`now`, monotonic nanoseconds) for tests.
public final class InventoryCircuitBreaker: Sendable {
    /// `--inventory-circuit-failures`' default.
    public static let defaultFailureThreshold = 5
    /// `--inventory-circuit-cooldown-ms`' default.
    public static let defaultCoolDownMilliseconds = 2_000

    enum Admission: Equatable {
        /// Send the request; `probe` when it is the half-open circuit's single probe.
        case send(probe: Bool)
        /// Refuse the check at once; the circuit is asked again after this long.
        case refuse(retryAfterMs: Int)
    }

    /// How a request that was sent ended, as far as the service's health goes.
    enum Verdict {
        case success, failure
        /// Neither: the check's own client cancelled it before the service could answer.
        case none
    }

    private enum State: Equatable {
        case closed(failuresInARow: Int)
        case open(until: UInt64)
        case halfOpen
    }

    let failureThreshold: Int
    let coolDownNanoseconds: UInt64
    private let now: @Sendable () -> UInt64
    private let state = Locked(State.closed(failuresInARow: 0))
    private let opened = Locked(0)

    init(failureThreshold: Int = defaultFailureThreshold, coolDownMilliseconds: Int = defaultCoolDownMilliseconds,
         now: @escaping @Sendable () -> UInt64) {
        self.failureThreshold = max(1, failureThreshold)
        coolDownNanoseconds = UInt64(max(1, coolDownMilliseconds)) * 1_000_000
        self.now = now
    }

    /// Whether a check may go to the service now.
    func admit() -> Admission {
        let time = now()
        return state.withLock { state in
            switch state {
            case .closed:
                return .send(probe: false)
            case let .open(until) where time < until:
                return .refuse(retryAfterMs: Int((until - time + 999_999) / 1_000_000))
            case .open:
                state = .halfOpen
                return .send(probe: true)
            case .halfOpen:
                return .refuse(retryAfterMs: Int(coolDownNanoseconds / 1_000_000))
            }
        }
    }

    /// Records how a request admitted with `admission` ended.
    func record(_ verdict: Verdict, probe: Bool) {
        let time = now()
        let didOpen = state.withLock { state -> Bool in
            switch (verdict, state) {
            case (.none, .halfOpen) where probe:
                state = .open(until: time)  // the next check probes
            case (.none, _):
                break
            case (.success, _):
                if probe || state != .halfOpen { state = .closed(failuresInARow: 0) }
            case (.failure, .halfOpen) where probe:
                state = .open(until: time + coolDownNanoseconds)
                return true
            case let (.failure, .closed(failures)):
                guard failures + 1 >= failureThreshold else {
                    state = .closed(failuresInARow: failures + 1)
                    break
                }
                state = .open(until: time + coolDownNanoseconds)
                return true
            case (.failure, _):
                break  // a late failure of a request sent before the circuit opened
            }
            return false
        }
        if didOpen { opened.withLock { $0 += 1 } }
    }

    /// "closed", "open" or "halfOpen", and how many times the circuit has opened (`rpc.stats`).
    var snapshot: (state: String, timesOpened: Int) {
        let name = state.withLock { state -> String in
            switch state {
            case .closed: return "closed"
            case .open: return "open"
            case .halfOpen: return "halfOpen"
            }
        }
        return (name, opened.withLock { $0 })
    }
}
