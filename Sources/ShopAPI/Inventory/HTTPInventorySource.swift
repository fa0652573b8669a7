import Dispatch
import FoundationEssentials  // URL, Data
import RPCServer  // Locked: a lock ThreadSanitizer can see; Log

// MARK: - HTTPInventorySource

/// Live stock from an inventory service over HTTP(S) (protocol.md, "Live inventory"):
/// `GET {base}/stock?sku=A&sku=B` → `200 {"levels":[{"sku":"A","available":3},…]}`.
///
/// - At most `maxConcurrent` requests are outstanding; further checks wait in FIFO order without
///   blocking a thread (`InventoryAdmissionGate`).
/// - Interruption stops the work: a waiting check leaves the queue and never reaches the service;
///   a running one has its HTTP request cancelled, which closes its connection.
/// - A check admitted with less than `minimumUsefulMilliseconds` (or a quarter of its whole
///   budget, if that is less) left before its deadline is not sent (it gives its slot to the next
///   waiter and ends at its deadline): at peak, when many
///   deadlines pass together, each cancelled request would otherwise admit a waiter that is
///   itself cancelled a moment later, and nearly every shed check would still reach the service.
/// - A service that fails `InventoryCircuitBreaker.defaultFailureThreshold` times in a row is not
///   asked for `defaultCoolDownMilliseconds`: checks fail at once (`.inventoryCircuitOpen`), then
///   one probe at a time until one succeeds (`InventoryCircuitBreaker`).
/// - Each request tells the service how long the check will wait for it: `X-Request-Timeout-Ms`,
///   the whole milliseconds left until the check's deadline when the request starts.
/// - Every failure of the service is `ShopError.inventoryUnavailable`; an answer that is not
///   exactly the asked SKUs with non-negative integer counts is refused, never shown as stock.
/// - Thread-safe; `checkInventory` never blocks and calls its completion exactly once.
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

    public let baseURL: URL
    public let maxConcurrent: Int
    public let maxBodyBytes: Int
    public let minimumUsefulMilliseconds: Int
    private let gate: InventoryAdmissionGate
    private let session: InventoryHTTPSession
    private let counters = Locked(Counters())
    private let breaker: InventoryCircuitBreaker

    /// What the source has done since it was made (`statsJSON`).
    private struct Counters {
        var upstreamRequests = 0
        var answered = 0
        var upstreamFailures = 0
        var cancelled = 0
        var notSentTooLate = 0
        var refusedWhileOpen = 0
    }

    /// - Parameters:
    ///   - baseURL: an `http` or `https` URL (see `isUsableBaseURL`); `/stock` is appended to its path.
    ///   - maxConcurrent: the most requests outstanding to the service at once (at least 1).
    ///   - maxBodyBytes: the largest answer accepted; a larger one is `.inventoryUnavailable`.
    ///   - minimumUsefulMilliseconds: a check admitted with less time than this (or than a quarter
    ///     of its budget) left is not sent.
    ///   - circuitFailures, circuitCoolDownMilliseconds: the circuit breaker's failures in a row
    ///     and cool-down (`InventoryCircuitBreaker`).
    /// - Throws: `Unavailable` when the HTTP client cannot be made: libcurl (loaded here, not at
    ///   start-up) is missing or too old; the error says which.
    public init(baseURL: URL, maxConcurrent: Int = defaultMaxConcurrent, maxBodyBytes: Int = defaultMaxBodyBytes,
                minimumUsefulMilliseconds: Int = 100,
                circuitFailures: Int = InventoryCircuitBreaker.defaultFailureThreshold,
                circuitCoolDownMilliseconds: Int = InventoryCircuitBreaker.defaultCoolDownMilliseconds) throws(Unavailable) {
        self.baseURL = baseURL
        self.maxConcurrent = max(1, maxConcurrent)
        self.maxBodyBytes = max(1, maxBodyBytes)
        self.minimumUsefulMilliseconds = max(0, minimumUsefulMilliseconds)
        gate = InventoryAdmissionGate(limit: self.maxConcurrent)
        breaker = InventoryCircuitBreaker(failureThreshold: circuitFailures, coolDownMilliseconds: circuitCoolDownMilliseconds) {
            DispatchTime.now().uptimeNanoseconds
        }
        session = try InventoryHTTPSession(maxConnections: self.maxConcurrent, maxBodyBytes: self.maxBodyBytes)
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
        let distinct = InventoryStockAnswer.distinct(skus)
        guard let url = InventoryStockAnswer.requestURL(base: baseURL, skus: distinct) else {
            return completion(.failure(.inventoryUnavailable(detail: "cannot build a request URL from \(baseURL)", status: nil)))
        }
        guard !interruption.isInterrupted else { return completion(.failure(.interrupted)) }
        // The circuit breaker: a service failing again and again is not asked (see its doc).
        let probe: Bool
        switch breaker.admit() {
        case let .refuse(retryAfterMs):
            counters.withLock { $0.refusedWhileOpen += 1 }
            return completion(.failure(.inventoryCircuitOpen(retryAfterMs: retryAfterMs)))
        case let .send(isProbe):
            probe = isProbe
        }
        let sent = Locked(false)
        let check = InventoryCheck(ticket: gate.makeTicket()) { [breaker] result in
            let verdict: InventoryCircuitBreaker.Verdict
            switch result {
            case .success: verdict = .success
            case .failure(.inventoryUnavailable): verdict = .failure
            // Cut off by its deadline while at the service: the service was too slow. Cancelled by
            // its client, or never sent: no verdict.
            case .failure: verdict = sent.withLock { $0 } && DispatchTime.now() >= deadline ? .failure : .none
            }
            breaker.record(verdict, probe: probe)
            completion(result)
        }
        check.interruptRegistration = interruption.addInterruptHandler { [gate] in
            check.interrupt(gate: gate)
        }
        let latestStart = Self.latestStart(deadline: deadline, minimumUsefulMilliseconds: minimumUsefulMilliseconds)
        gate.enter(check.ticket) { [gate, session, maxBodyBytes, counters] in
            check.start(gate: gate, latestStart: latestStart, onNotSent: { counters.withLock { $0.notSentTooLate += 1 } }) { done in
                counters.withLock { $0.upstreamRequests += 1 }
                sent.withLock { $0 = true }
                return session.makeRequest(url, deadline: deadline) { outcome in
                    let levels = Self.levels(from: outcome, asked: skus, maxBodyBytes: maxBodyBytes)
                    counters.withLock { counters in
                        switch (outcome, levels) {
                        case (.failure(.cancelled), _): counters.cancelled += 1
                        case (_, .success): counters.answered += 1
                        case (_, .failure): counters.upstreamFailures += 1
                        }
                    }
                    done(levels)
                }
            }
        }
    }

    /// The `inventory` section of `rpc.stats` (protocol.md, section 6.2): the limit, checks sending
    /// (`inFlight`) and waiting (`queued`) now, and since start the requests sent and how they
    /// ended (`answered` with valid levels, `upstreamFailures`: refused, lost, timed out by the
    /// client, non-200 or malformed; `cancelled`: the check's deadline or cancel ended the request),
    /// and `notSentTooLate`: checks admitted too close to their deadline to be worth sending.
    /// Thread-safe; cheap (two locks held briefly).
    public var statsJSON: JSONValue {
        let now = gate.counts
        let total = counters.withLock { $0 }
        let circuit = breaker.snapshot
        return [
            "circuit": .string(circuit.state),
            "circuitOpened": .int(Int64(circuit.timesOpened)),
            "refusedWhileOpen": .int(Int64(total.refusedWhileOpen)),
            "limit": .int(Int64(maxConcurrent)),
            "inFlight": .int(Int64(now.running)),
            "queued": .int(Int64(now.waiting)),
            "upstreamRequests": .int(Int64(total.upstreamRequests)),
            "answered": .int(Int64(total.answered)),
            "upstreamFailures": .int(Int64(total.upstreamFailures)),
            "cancelled": .int(Int64(total.cancelled)),
            "notSentTooLate": .int(Int64(total.notSentTooLate)),
        ]
    }

    /// When a check stops being worth sending: `minimumUseful` before `deadline`, or a quarter of
    /// the time left now if that is less (so a call with a 40 ms budget can still be answered).
    static func latestStart(deadline: DispatchTime, minimumUsefulMilliseconds: Int, now: DispatchTime = .now()) -> DispatchTime {
        guard deadline != .distantFuture else { return deadline }
        let left = deadline.uptimeNanoseconds > now.uptimeNanoseconds ? deadline.uptimeNanoseconds - now.uptimeNanoseconds : 0
        let margin = min(UInt64(minimumUsefulMilliseconds) * 1_000_000, left / 4)
        return DispatchTime(uptimeNanoseconds: deadline.uptimeNanoseconds - margin)
    }

    // MARK: - Interpreting the answer

    /// Levels from a finished request, or why there are none.
    static func levels(from outcome: Result<InventoryHTTPSession.Answer, InventoryHTTPSession.Failure>, asked skus: [String],
                       maxBodyBytes: Int) -> Result<InventoryLevels, ShopError> {
        switch outcome {
        case let .failure(failure):
            return .failure(unavailable(failure, maxBodyBytes: maxBodyBytes))
        case let .success(answer):
            guard answer.status == 200 else {
                return .failure(.inventoryUnavailable(detail: "the service answered HTTP \(answer.status)", status: answer.status))
            }
            return Result { () throws(ShopError) in try InventoryStockAnswer.levels(from: answer.body, asked: skus) }
        }
    }

    private static func unavailable(_ failure: InventoryHTTPSession.Failure, maxBodyBytes: Int) -> ShopError {
        let detail: String
        switch failure {
        case .tooLarge: return .inventoryUnavailable(detail: "the answer is larger than \(maxBodyBytes) bytes", status: 200)
        case .refused: detail = "connection refused"
        case .unresolved: detail = "cannot resolve the service's host"
        case .timedOut: detail = "the service did not answer in time"
        case .connectionLost: detail = "the connection was lost before the answer was complete"
        case .cancelled: detail = "the request was cancelled"
        case .other(let message): detail = "the request failed: \(message)"
        }
        return .inventoryUnavailable(detail: detail, status: nil)
    }
}

// MARK: - InventoryCheck

/// One check's way through the gate and the network, settled by one lock: it is either still
/// waiting (`request == nil`), running (`request` set), shed (admitted too late: no request, waits for its
/// interruption), or finished. Thread-safe.
///
/// `@unchecked Sendable`: `interruptRegistration` is written once, before `enter`, by the thread
/// that creates the check, and read only in `finish`, after that (the gate's lock orders it);
/// everything else is behind `state`.
private final class InventoryCheck: @unchecked Sendable {
    private struct State {
        var interrupted = false
        var shed = false
        var request: InventoryHTTPSession.Request?
        var completion: (@Sendable (Result<InventoryLevels, ShopError>) -> Void)?
    }

    let ticket: InventoryAdmissionGate.Ticket
    var interruptRegistration: (@Sendable () -> Void)?
    private let state: Locked<State>

    init(ticket: InventoryAdmissionGate.Ticket, completion: @escaping @Sendable (Result<InventoryLevels, ShopError>) -> Void) {
        self.ticket = ticket
        state = Locked(State(completion: completion))
    }

    /// Admitted by the gate: makes the request (unless interrupted meanwhile, or admitted after
    /// `latestStart`) and resumes it. The slot is given back when the request ends, however it ends.
    func start(gate: InventoryAdmissionGate, latestStart: DispatchTime, onNotSent: () -> Void,
               makeRequest: (@escaping @Sendable (Result<InventoryLevels, ShopError>) -> Void) -> InventoryHTTPSession.Request) {
        enum Start { case run(InventoryHTTPSession.Request), interrupted, shed }
        let start: Start = state.withLock { state in
            guard !state.interrupted, state.completion != nil else { return .interrupted }
            guard DispatchTime.now() < latestStart else {
                state.shed = true
                return .shed
            }
            let request = makeRequest { result in
                gate.leave()
                self.finish(result)
            }
            state.request = request
            return .run(request)
        }
        switch start {
        case let .run(request):
            request.resume()
        case .interrupted:
            gate.leave()
            finish(.failure(.interrupted))
        case .shed:
            onNotSent()
            gate.leave()  // its deadline's interruption finishes it; the engine replies -32001 then
        }
    }

    /// The call's deadline passed or it was cancelled: leave the queue, or cancel the request.
    func interrupt(gate: InventoryAdmissionGate) {
        let (request, shed): (InventoryHTTPSession.Request?, Bool) = state.withLock { state in
            state.interrupted = true
            return (state.request, state.shed)
        }
        if let request {
            Log.debug("inventory: check interrupted, cancelling its request to the service")
            request.cancel()  // completes through the request's completion, which gives the slot back
        } else if shed || gate.withdraw(ticket) {
            Log.debug("inventory: check interrupted before it was sent; it never reaches the service")
            finish(.failure(.interrupted))
        }
        // Otherwise it was admitted but has not made its request yet: `start` sees `interrupted`.
    }

    private func finish(_ result: Result<InventoryLevels, ShopError>) {
        let completion = state.withLock { state in
            defer { state.completion = nil; state.request = nil }
            return state.completion
        }
        guard let completion else { return }
        interruptRegistration?()
        completion(result)
    }
}
