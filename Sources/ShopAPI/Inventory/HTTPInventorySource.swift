import Dispatch
import FoundationEssentials  // URL
import SharedSupport

/// Live stock from an inventory service over HTTP(S) (protocol.md, "Live inventory"):
/// `GET {base}/stock?sku=A&sku=B` → `200 {"levels":[{"sku":"A","available":3},…]}`, built to
/// keep answering when the service slows down under peak load.
///
/// What to send, when, and to whom an answer goes is decided by `InventoryFlightTable`, a pure
/// state machine: coalescing checks into shared requests, the adaptive limit and its queue,
/// shedding checks that cannot be answered before their deadline, marked-stale answers and the
/// circuit breaker. This class only carries its decisions out: it holds the table behind one lock,
/// reads the clock once per event (under that lock, so the table sees time go forward), makes and
/// cancels the HTTP requests (`InventoryHTTPSession`), completes the checks, and keeps the one
/// timer the table asks for.
///
/// - Interruption stops the work: a check leaves its requests; one nobody waits on is withdrawn
///   from the queue or cancelled (its connection closed).
/// - Every failure of the service is `ShopError.inventoryUnavailable`; an answer that is not
///   exactly the asked SKUs with non-negative integer counts is refused, never shown as stock.
/// - Thread-safe. `checkInventory` never blocks and calls its completion exactly once, never under
///   the lock; so are requests resumed and cancelled, after the lock is released.
///
/// ```swift
/// let source = try HTTPInventorySource(baseURL: URL(string: "http://127.0.0.1:8080")!, maxConcurrent: 16)
/// let methods = ShopMethods.specs(service: service, inventory: source)
/// ```
public final class HTTPInventorySource: InventorySource {
    public static let defaultMaxConcurrent = 16
    /// The largest answer accepted by default. 100 SKUs of a few dozen bytes each need a few
    /// KiB; anything near this is not a stock answer.
    public static let defaultMaxBodyBytes = 1 << 20
    /// Failures in a row that open the circuit by default (`InventoryCircuitBreaker`).
    public static let defaultCircuitFailures = InventoryCircuitBreaker.defaultFailureThreshold
    /// How long an open circuit refuses checks by default before it probes the service again.
    public static let defaultCircuitCoolDownMilliseconds = InventoryCircuitBreaker.defaultCoolDownMilliseconds

    public let baseURL: URL
    /// The ceiling of the adaptive limit (`--inventory-max-concurrent`).
    public let maxConcurrent: Int
    public let maxBodyBytes: Int
    public let minimumUsefulMilliseconds: Int
    /// How old a level may be to be answered marked stale; 0: never.
    public let staleMilliseconds: Int
    /// Whether checks join pending requests for their SKUs.
    public let coalescing: Bool
    /// Whether the limit adapts and checks that cannot be served in time are shed at once (else
    /// the limit stays at `maxConcurrent` and such checks wait for their deadline).
    public let adaptiveLimit: Bool
    let session: InventoryHTTPSession
    /// Nanoseconds on the timeline of `DispatchTime.uptimeNanoseconds` (the checks' deadlines).
    private let clock: @Sendable () -> UInt64
    private let state: Locked<State>
    private let timerQueue = DispatchQueue(label: "shop.inventory.timer")
    private nonisolated(unsafe) let timer: any DispatchSourceTimer  // DispatchSource methods are thread-safe; the existential is not marked Sendable

    /// Everything the checks and requests share, behind one lock.
    struct State {
        var flights: InventoryFlightTable
        /// The completion of each check the table holds.
        var completions: [InventoryPendingCheck.ID: @Sendable (Result<InventoryLevels, ShopError>) -> Void] = [:]
        /// Unregisters a waiting check's interruption handler.
        var interruptRegistrations: [InventoryPendingCheck.ID: @Sendable () -> Void] = [:]
        /// The request of each flight sent and not yet ended.
        var requests: [InventoryFlight.ID: InventoryHTTPSession.Request] = [:]
    }

    /// - Parameters:
    ///   - baseURL: an `http` or `https` URL (see `isUsableBaseURL`); `/stock` is appended to its path.
    ///   - maxConcurrent: the most requests outstanding to the service at once (at least 1): the
    ///     adaptive limit's ceiling.
    ///   - maxBodyBytes: the largest answer accepted; a larger one is `.inventoryUnavailable`.
    ///   - minimumUsefulMilliseconds: a request admitted with less time than this (or than a
    ///     quarter of its check's budget) left before every waiting check's deadline is not sent.
    ///   - circuitFailures, circuitCoolDownMilliseconds: the circuit breaker's failures in a row
    ///     and cool-down (`InventoryCircuitBreaker`).
    ///   - staleMilliseconds: the oldest level answered marked stale; 0 turns stale answers off.
    ///   - coalescing: checks join pending requests for their SKUs.
    ///   - adaptiveLimit: the limit adapts and hopeless checks are shed at once.
    ///   - clock: now, in nanoseconds on the timeline of the deadlines given to `checkInventory`
    ///     (`DispatchTime.uptimeNanoseconds`); tests pass a clock they move.
    /// - Throws: `Unavailable` when the HTTP client cannot be made: libcurl (loaded here, not at
    ///   start-up) is missing or too old; the error says which.
    public init(baseURL: URL, maxConcurrent: Int = defaultMaxConcurrent, maxBodyBytes: Int = defaultMaxBodyBytes,
                minimumUsefulMilliseconds: Int = 100,
                circuitFailures: Int = defaultCircuitFailures,
                circuitCoolDownMilliseconds: Int = defaultCircuitCoolDownMilliseconds,
                staleMilliseconds: Int = 0, coalescing: Bool = true, adaptiveLimit: Bool = true,
                clock: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }) throws(Unavailable) {
        self.baseURL = baseURL
        self.maxConcurrent = max(1, maxConcurrent)
        self.maxBodyBytes = max(1, maxBodyBytes)
        self.minimumUsefulMilliseconds = max(0, minimumUsefulMilliseconds)
        self.staleMilliseconds = max(0, staleMilliseconds)
        self.coalescing = coalescing
        self.adaptiveLimit = adaptiveLimit
        self.clock = clock
        let configuration = InventoryFlightTable.Configuration(
            ceiling: self.maxConcurrent, coalescing: coalescing, adaptiveLimit: adaptiveLimit,
            staleMilliseconds: self.staleMilliseconds, minimumUsefulMilliseconds: self.minimumUsefulMilliseconds,
            circuitFailures: circuitFailures, circuitCoolDownMilliseconds: circuitCoolDownMilliseconds)
        state = Locked(State(flights: InventoryFlightTable(configuration)))
        session = try InventoryHTTPSession(maxConnections: self.maxConcurrent, maxBodyBytes: self.maxBodyBytes)
        timer = DispatchSource.makeTimerSource(queue: timerQueue)
        timer.setEventHandler { [weak self] in self?.timerFiredOnTimerQueue() }
        timer.resume()  // resumed once, for good: a suspended source must never be released
    }

    deinit {
        timer.cancel()
    }

    /// The HTTP client cannot be made; `description` says why (e.g. libcurl cannot be loaded).
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// Whether `url` can be a service base: scheme `http` or `https`, a host, no fragment.
    public static func isUsableBaseURL(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty, url.fragment == nil
        else { return false }
        return true
    }

    public func checkInventory(
        skus: [String],
        deadline: DispatchTime,
        interruption: any ShopInterruption,
        completion: @escaping @Sendable (Result<InventoryLevels, ShopError>) -> Void
    ) {
        // Every request's URL is built from checks' SKUs on this base, so if this one builds, theirs do.
        guard InventoryStockAnswer.requestURL(base: baseURL, skus: InventoryStockAnswer.distinct(skus)) != nil else {
            return completion(.failure(Self.unbuildableURL(baseURL)))
        }
        guard !interruption.isInterrupted else { return completion(.failure(.interrupted)) }
        var work = Work()
        let waiting: InventoryPendingCheck.ID? = state.withLock { state in
            let (check, actions) = state.flights.startCheck(skus: skus, deadline: deadline.uptimeNanoseconds, now: clock())
            state.completions[check] = completion
            prepare(actions, in: &state, work: &work)
            return state.completions[check] == nil ? nil : check
        }
        carryOut(work)
        guard let check = waiting else { return }
        // The interruption (deadline or cancel) takes the check out of its flights.
        let unregister = interruption.addInterruptHandler { [weak self] in
            self?.perform { state, now in state.flights.interruptCheck(check, now: now) }
        }
        let registered = state.withLock { state -> Bool in
            guard state.completions[check] != nil else { return false }
            state.interruptRegistrations[check] = unregister
            return true
        }
        if !registered { unregister() }
    }

    /// What the inventory client is doing now and has done since start (the `inventory` section of
    /// `rpc.stats`, protocol.md section 6.2). Thread-safe; cheap (one lock held briefly).
    public var stats: InventoryStats {
        state.withLock { $0.flights.stats }
    }

    /// The checks and requests this source holds now (tests: nothing is left behind).
    var held: (checks: Int, requests: Int) {
        state.withLock { ($0.completions.count, $0.requests.count) }
    }

    // MARK: - Carrying out the table's actions

    /// What an event asks for that must wait until the lock is released, in this order.
    private struct Work {
        var resume: [InventoryHTTPSession.Request] = []
        var cancel: [InventoryHTTPSession.Request] = []
        var complete: [(unregister: (@Sendable () -> Void)?, completion: @Sendable (Result<InventoryLevels, ShopError>) -> Void,
                        result: Result<InventoryLevels, ShopError>)] = []
        var armTimer = false
    }

    /// Applies one event to the table (in `state`) at the clock's time and carries out what it returns.
    private func perform(_ event: (inout State, UInt64) -> [InventoryFlightTable.Action]) {
        var work = Work()
        state.withLock { state in
            let actions = event(&state, clock())
            prepare(actions, in: &state, work: &work)
        }
        carryOut(work)
    }

    /// After the lock: resumes, cancels and completes, in that order (a check's interruption
    /// handler is unregistered just before its completion runs), then moves the timer.
    private func carryOut(_ work: Work) {
        for request in work.resume { request.resume() }
        if !work.cancel.isEmpty { StderrLog.debug("inventory: no check waits on \(work.cancel.count) request(s) any more; cancelling") }
        for request in work.cancel { request.cancel() }
        for (unregister, completion, result) in work.complete {
            unregister?()
            completion(result)
        }
        if work.armTimer { timerQueue.async { [weak self] in self?.armOnTimerQueue() } }
    }

    /// Under the lock: makes the requests to send (so a cancel always finds its request), takes
    /// the completions to call and the requests to cancel.
    private func prepare(_ actions: [InventoryFlightTable.Action], in state: inout State, work: inout Work) {
        for action in actions {
            switch action {
            case let .send(flight, skus, timeoutMilliseconds):
                guard let url = InventoryStockAnswer.requestURL(base: baseURL, skus: skus) else {
                    // Unreachable: every check's SKUs made a URL on this base (`checkInventory`).
                    let more = state.flights.requestEnded(flight, .failed(Self.unbuildableURL(baseURL)), now: state.flights.now)
                    prepare(more, in: &state, work: &work)
                    continue
                }
                let request = session.makeRequest(url, timeoutMilliseconds: timeoutMilliseconds) { [weak self, maxBodyBytes] outcome in
                    let end = Self.requestEnd(outcome, asked: skus, maxBodyBytes: maxBodyBytes)
                    self?.perform { state, now in
                        state.requests[flight] = nil
                        return state.flights.requestEnded(flight, end, now: now)
                    }
                }
                state.requests[flight] = request
                work.resume.append(request)
            case let .cancel(flight):
                if let request = state.requests[flight] { work.cancel.append(request) }
            case let .complete(check, result):
                if let completion = state.completions.removeValue(forKey: check) {
                    work.complete.append((state.interruptRegistrations.removeValue(forKey: check), completion, result))
                }
            case .wakeUp:
                work.armTimer = true
            }
        }
    }

    // MARK: - The timer

    /// Arms the timer for the table's wish as it is now. Only here, on the timer queue, so two
    /// arms can never land out of order.
    private func armOnTimerQueue() {
        dispatchPrecondition(condition: .onQueue(timerQueue))
        let wanted = state.withLock { state in state.flights.wakeUps.armedAt.map { (at: $0, now: clock()) } }
        guard let wanted else { return }
        let delay = min(InventoryTime.left(until: wanted.at, now: wanted.now), UInt64(Int.max / 2))
        timer.schedule(deadline: .now() + .nanoseconds(Int(delay)), leeway: .milliseconds(1))
    }

    private func timerFiredOnTimerQueue() {
        dispatchPrecondition(condition: .onQueue(timerQueue))
        perform { state, now in state.flights.timerFired(now: now) }
    }
}
