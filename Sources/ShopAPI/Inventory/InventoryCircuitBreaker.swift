/// Stops asking an inventory service that keeps failing, and probes it until it answers again.
///
/// - **Closed** (normal): every check is sent. `failureThreshold` failures in a row (refused,
///   lost, non-200, malformed, or a request its check's deadline cut off) open the circuit.
/// - **Open** for `coolDownMilliseconds`: checks are refused at once (`admit` says for how much
///   longer), so a service that is down costs a check nothing and gets no load.
/// - **Half-open** after the cool-down: the next check is sent as a single probe while the others
///   are still refused; its success closes the circuit, its failure opens it for another
///   cool-down. A probe that ends without a verdict (cancelled by its client, or never sent) lets
///   the next check probe instead.
///
/// A value type on the caller's clock: every event takes `now` (monotonic nanoseconds), and
/// nothing here reads the time. The owner serializes access (`InventoryFlightTable`, behind
/// `HTTPInventorySource`'s lock).
package struct InventoryCircuitBreaker: Sendable, Equatable {
    /// `--inventory-circuit-failures`' default.
    package static let defaultFailureThreshold = 5
    /// `--inventory-circuit-cooldown-ms`' default.
    package static let defaultCoolDownMilliseconds = 2_000

    enum Admission: Equatable {
        /// Send the request; `probe` when it is the half-open circuit's single probe.
        case send(probe: Bool)
        /// Refuse the check at once; the circuit is asked again after this long.
        case refuse(retryAfterMs: Int)
    }

    /// How a request that was admitted ended, as far as the service's health goes.
    enum Verdict {
        case success, failure
        /// Neither: the check's own client cancelled it, or it was never sent.
        case none
    }

    enum State: Equatable {
        case closed(failuresInARow: Int)
        case open(until: UInt64)
        case halfOpen
    }

    let failureThreshold: Int
    let coolDownNanoseconds: UInt64
    private(set) var state = State.closed(failuresInARow: 0)
    /// How many times the circuit has opened.
    private(set) var timesOpened = 0

    init(failureThreshold: Int = defaultFailureThreshold, coolDownMilliseconds: Int = defaultCoolDownMilliseconds) {
        self.failureThreshold = max(1, failureThreshold)
        coolDownNanoseconds = InventoryTime.nanoseconds(milliseconds: max(1, coolDownMilliseconds))
    }

    /// Whether a check may go to the service at `now`.
    mutating func admit(now: UInt64) -> Admission {
        switch state {
        case .closed:
            return .send(probe: false)
        case let .open(until) where now < until:
            return .refuse(retryAfterMs: Int((until - now + 999_999) / InventoryTime.nanosecondsPerMillisecond))
        case .open:
            state = .halfOpen
            return .send(probe: true)
        case .halfOpen:
            return .refuse(retryAfterMs: Int(coolDownNanoseconds / InventoryTime.nanosecondsPerMillisecond))
        }
    }

    /// Records how a request admitted with `admit` (as a probe or not) ended, at `now`.
    mutating func record(_ verdict: Verdict, probe: Bool, now: UInt64) {
        switch (verdict, state) {
        case (.none, .halfOpen) where probe:
            state = .open(until: now)  // the next check probes
        case (.none, _):
            break
        case (.success, _):
            if probe || state != .halfOpen { state = .closed(failuresInARow: 0) }
        case (.failure, .halfOpen) where probe:
            open(now: now)
        case let (.failure, .closed(failures)):
            if failures + 1 >= failureThreshold {
                open(now: now)
            } else {
                state = .closed(failuresInARow: failures + 1)
            }
        case (.failure, _):
            break  // a late failure of a request sent before the circuit opened
        }
    }

    private mutating func open(now: UInt64) {
        state = .open(until: InventoryTime.adding(coolDownNanoseconds, to: now))
        timesOpened += 1
    }

    /// "closed", "open" or "halfOpen" (`rpc.stats`).
    var stateName: String {
        switch state {
        case .closed: return "closed"
        case .open: return "open"
        case .halfOpen: return "halfOpen"
        }
    }
}
