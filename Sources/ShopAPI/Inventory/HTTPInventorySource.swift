import Dispatch
import FoundationEssentials  // URL, Data
import SharedSupport

// MARK: - HTTPInventorySource

/// Live stock from an inventory service over HTTP(S) (protocol.md, "Live inventory"):
/// `GET {base}/stock?sku=A&sku=B` → `200 {"levels":[{"sku":"A","available":3},…]}`, built to
/// keep answering when the service slows down under peak load.
///
/// - **Coalescing.** A check joins the request already pending for a SKU (queued here, or sent
///   recently enough to be answered before the check's deadline) and asks only for the SKUs no
///   pending request covers, in one request (`InventoryFlight`): the newest request still queued
///   when it has room (up to `maxSkusPerRequest` SKUs), else a new one. A request is cancelled
///   only when no check waits on it any more.
/// - **Adaptive limit.** At most `limit` requests are outstanding; the limit follows the service's
///   latency between 1 and `maxConcurrent` (`InventoryAdaptiveLimit`). Further requests wait in FIFO
///   order without blocking a thread (`InventoryAdmissionGate`). A check whose request the queue
///   would not let out in time to be answered before its deadline is answered at once (shed:
///   `ShopError.inventoryShed`), not at its deadline; so is a check whose request reaches the
///   front of the queue with less time left than the service takes lately.
/// - **Marked-stale answers** (`staleMilliseconds > 0`): when the service fails, sheds, its
///   circuit is open, or the deadline is near, a SKU whose last fresh level is at most that old is
///   answered from it, marked (`StockLevel.ageMs`); never an unmarked old number, never an
///   invented one (`InventoryStaleCache`).
/// - **Circuit breaker**: a service that fails `circuitFailures` times in a row is not asked for a
///   cool-down, then probed (`InventoryCircuitBreaker`).
/// - **Deadline propagation**: each request carries `X-Request-Timeout-Ms`, the whole milliseconds
///   its earliest waiting check has left when it starts.
/// - Interruption stops the work: a check leaves its requests; one nobody waits on is withdrawn
///   from the queue or cancelled (its connection closed). A request admitted too late for every
///   check waiting on it is not sent.
/// - Every failure of the service is `ShopError.inventoryUnavailable`; an answer that is not
///   exactly the asked SKUs with non-negative integer counts is refused, never shown as stock.
/// - Thread-safe: one lock (`table`) orders every check and request; `checkInventory` never
///   blocks and calls its completion exactly once, never under the lock.
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
    /// With stale answers on, how long before its deadline a check still waiting is answered from
    /// stale levels (or a quarter of its whole budget, if that is less).
    public static let staleNearDeadlineMilliseconds = 250

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
    /// the limit stays at `maxConcurrent` and such checks wait for their deadline, as before #25).
    public let adaptiveLimit: Bool
    let gate: InventoryAdmissionGate
    let session: InventoryHTTPSession
    let breaker: InventoryCircuitBreaker
    let table: Locked<Table>

    /// Everything the checks and requests share, behind one lock.
    struct Table {
        /// The newest pending request for each SKU (the one a new check may join).
        var flightsBySku: [String: InventoryFlight] = [:]
        /// The request launched last; while it is still queued, new checks add their SKUs to it.
        var newestQueuedFlight: InventoryFlight?
        /// Requests sent, oldest first; finished ones are dropped from the front as requests finish
        /// (`dropFinishedFromSentInOrder_locked`), so the first is the oldest still out.
        var sentInOrder: [InventoryFlight] = []
        var limiter: InventoryAdaptiveLimit
        var cache = InventoryStaleCache()
        var counters = Counters()
    }

    /// What the source has done since it was made (`statsJSON`).
    struct Counters {
        var upstreamRequests = 0
        var answered = 0
        var upstreamFailures = 0
        var cancelled = 0
        var notSentTooLate = 0
        var refusedWhileOpen = 0
        var coalescedJoins = 0
        var shed = 0
        var staleAnswers = 0
        var staleLevels = 0
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
    /// - Throws: `Unavailable` when the HTTP client cannot be made: libcurl (loaded here, not at
    ///   start-up) is missing or too old; the error says which.
    public init(baseURL: URL, maxConcurrent: Int = defaultMaxConcurrent, maxBodyBytes: Int = defaultMaxBodyBytes,
                minimumUsefulMilliseconds: Int = 100,
                circuitFailures: Int = InventoryCircuitBreaker.defaultFailureThreshold,
                circuitCoolDownMilliseconds: Int = InventoryCircuitBreaker.defaultCoolDownMilliseconds,
                staleMilliseconds: Int = 0, coalescing: Bool = true, adaptiveLimit: Bool = true) throws(Unavailable) {
        self.baseURL = baseURL
        self.maxConcurrent = max(1, maxConcurrent)
        self.maxBodyBytes = max(1, maxBodyBytes)
        self.minimumUsefulMilliseconds = max(0, minimumUsefulMilliseconds)
        self.staleMilliseconds = max(0, staleMilliseconds)
        self.coalescing = coalescing
        self.adaptiveLimit = adaptiveLimit
        gate = InventoryAdmissionGate(limit: self.maxConcurrent)
        breaker = InventoryCircuitBreaker(failureThreshold: circuitFailures, coolDownMilliseconds: circuitCoolDownMilliseconds) {
            DispatchTime.now().uptimeNanoseconds
        }
        table = Locked(Table(limiter: InventoryAdaptiveLimit(ceiling: self.maxConcurrent, adaptive: adaptiveLimit)))
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
        guard InventoryStockAnswer.requestURL(base: baseURL, skus: distinct) != nil else {
            return completion(.failure(.inventoryUnavailable(detail: "cannot build a request URL from \(baseURL)", status: nil)))
        }
        guard !interruption.isInterrupted else { return completion(.failure(.interrupted)) }
        let check = InventoryPendingCheck(
            skus: skus, distinct: distinct, deadline: deadline,
            latestStart: Self.latestStart(deadline: deadline, minimumUsefulMilliseconds: minimumUsefulMilliseconds),
            completion: completion)
        var after = AfterUnlock()
        table.withLock { table in
            startCheck_locked(check, distinct: distinct, in: &table, after: &after)
        }
        after.run()  // enters new requests at the gate, or completes the check at once
        // The interruption (deadline or cancel) takes the check out of its requests.
        let registration = interruption.addInterruptHandler { [weak self, weak check] in
            guard let self, let check else { return }
            self.interrupt(check)
        }
        let finished = table.withLock { _ in
            if check.completion == nil { return true }
            check.interruptRegistration = registration
            return false
        }
        if finished {
            registration()
        } else if staleMilliseconds > 0 {
            scheduleStaleAnswerNearDeadline(check)
        }
    }

    /// What the inventory client is doing now and has done since start (the `inventory` section of
    /// `rpc.stats`, protocol.md section 6.2). Thread-safe; cheap (a few locks held briefly).
    public var stats: InventoryStats {
        let now = gate.counts
        let (total, limiter, cached) = table.withLock { ($0.counters, $0.limiter, $0.cache.count) }
        let circuit = breaker.snapshot
        return InventoryStats(
            limit: now.limit, ceiling: maxConcurrent, inFlight: now.running, queued: now.waiting,
            coalescedJoins: total.coalescedJoins, shed: total.shed,
            staleAnswers: total.staleAnswers, staleLevels: total.staleLevels, staleCacheEntries: cached,
            circuit: circuit.state, circuitOpened: circuit.timesOpened, refusedWhileOpen: total.refusedWhileOpen,
            upstreamRequests: total.upstreamRequests, answered: total.answered, upstreamFailures: total.upstreamFailures,
            cancelled: total.cancelled, notSentTooLate: total.notSentTooLate,
            latencyRecentMs: limiter.baselineNs == nil ? nil : limiter.recentNs.map { Int(($0 / 1_000_000).rounded()) },
            latencyBaselineMs: limiter.recentNs == nil ? nil : limiter.baselineNs.map { Int(($0 / 1_000_000).rounded()) })
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
