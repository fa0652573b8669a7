/// How `inventory.check`s and the requests to the inventory service meet: a pure state machine.
///
/// Its events take the time (`now`, nanoseconds on the owner's clock) and return the actions the
/// owner must carry out (`Action`); it reads no clock, calls nothing and holds no closures, so a
/// test drives it on a manual clock:
///
/// | event | what may follow |
/// |---|---|
/// | `startCheck` | the check joins pending flights, adds its other SKUs to the flight still queued or queues a new one (`.send` if a slot is free), or is answered at once: shed, refused by the open circuit, or from stale levels |
/// | `requestEnded` | levels (or the failure, or stale levels) to every check waiting on the flight, a latency sample, the breaker's verdict; then the slot is free and the next queued flight is sent or shed (`.send`, `.complete`) |
/// | `interruptCheck` | the check is answered `.interrupted`; a flight nobody waits on any more is withdrawn from the queue or cancelled (`.cancel`) |
/// | `timerFired` | checks at their stale time are answered from stale levels when every SKU they lack has one |
///
/// Any event may end with `.wakeUp(at:)`: the time the owner's one timer must fire (`timerFired`).
///
/// What it decides (protocol.md §7, "Live inventory", says the same for users):
/// - **Coalescing**: a check joins the flight pending for a SKU when it is queued, or sent and
///   its answer is due before the check's deadline (`recent` after it was sent, and no sooner
///   than it has been out so far); while every slot is busy, its other SKUs join the newest
///   flight still queued (up to `maxSkusPerRequest`), else a new one.
/// - **The adaptive limit** (`InventoryAdaptiveLimit`): at most `limit` flights are out; the others
///   wait in FIFO order. A slot is given back only after the latency sample of the request that
///   held it, and the limit it moved, are recorded.
/// - **Shedding** (adaptive limit only): a check whose new flight would be answered after its
///   deadline (with `shedMarginOfLatency` to spare) is answered at once; at the front of the
///   queue, a waiter whose deadline comes before the expected answer is answered then, and a
///   flight too late for every waiter (`latestStart`) is not sent. The expected latency is the
///   recent one, or the age of the oldest request still out if that is more.
/// - **The circuit breaker** (`InventoryCircuitBreaker`) and **marked-stale answers**
///   (`InventoryStaleCache`, `staleMilliseconds > 0`).
///
/// Guarantees: every started check gets exactly one `.complete`; a check waits on a flight exactly
/// when the flight lists it (`attach` and `detach` change both sides); a flight nobody waits on is
/// never sent, and one that is sent is cancelled when its last check leaves; never more than
/// `limit` flights are sent at once, so never more than the ceiling; a level in a `.complete` is
/// one the service gave for that SKU, fresh, or marked stale with its age. A value type: the owner
/// serializes access (`HTTPInventorySource` keeps it behind its lock).
struct InventoryFlightTable: Sendable {
    /// What the table is told at its start (`HTTPInventorySource`'s options).
    struct Configuration: Sendable, Equatable {
        /// The most flights sent at once (`--inventory-max-concurrent`): the adaptive limit's ceiling.
        var ceiling = 16
        /// Whether checks join pending flights for their SKUs (`--inventory-coalesce`).
        var coalescing = true
        /// Whether the limit adapts and hopeless checks are shed (`--inventory-limit adaptive`);
        /// without it the limit stays at the ceiling and checks wait for their deadline.
        var adaptiveLimit = true
        /// How old a level may be to be answered marked stale; 0: never (`--inventory-stale-ms`).
        var staleMilliseconds = 0
        /// A flight admitted with less than this (or a quarter of its check's budget) left before
        /// every waiting check's deadline is not sent.
        var minimumUsefulMilliseconds = 100
        var circuitFailures = InventoryCircuitBreaker.defaultFailureThreshold
        var circuitCoolDownMilliseconds = InventoryCircuitBreaker.defaultCoolDownMilliseconds
    }

    /// What the owner must do after an event, in order.
    enum Action: Equatable, Sendable {
        /// Send the flight's request, `GET /stock` for `skus`, with `X-Request-Timeout-Ms:
        /// timeoutMilliseconds` (no header when nil); report its end with `requestEnded`.
        case send(InventoryFlight.ID, skus: [String], timeoutMilliseconds: Int?)
        /// Cancel the flight's request (close its connection); its end is still reported.
        case cancel(InventoryFlight.ID)
        /// Complete the check with this result (once per check).
        case complete(InventoryPendingCheck.ID, Result<InventoryLevels, ShopError>)
        /// Arm the timer to call `timerFired` at this time, instead of any later time asked before.
        case wakeUp(at: UInt64)
    }

    /// How a sent request ended.
    enum RequestEnd: Equatable, Sendable {
        /// The service answered, whatever the status: a latency sample. The levels, or why the
        /// answer is not usable (`ShopError.inventoryUnavailable`).
        case answered(Result<InventoryLevels, ShopError>)
        /// No answer: refused, lost, timed out. The error its checks get.
        case failed(ShopError)
        /// Cancelled: after its `.cancel`, or because the client stopped. The error any check still
        /// waiting on it gets.
        case cancelled(ShopError)
    }

    /// What the table has done since it was made (`InventoryStats`).
    struct Counters: Sendable, Equatable {
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

    /// The most SKUs one request asks for when checks' SKUs are batched into a queued flight: the
    /// most one check may ask (protocol.md), so the service sees no larger request than a check's.
    static let maxSkusPerRequest = 100

    /// How much later than predicted, as a share of the recent latency, a new flight's answer may
    /// come and still be in time for its check: a check predicted closer to its deadline than this
    /// is shed at once, since the queue's jitter would most likely make it too late at the front.
    static let shedMarginOfLatency = 0.25

    /// With stale answers on, how long before its deadline a check still waiting is answered from
    /// stale levels (or a quarter of its whole budget, if that is less).
    static let staleNearDeadlineMilliseconds = 250

    let configuration: Configuration
    // The state below is changed only by the events (this file and its +Checks and +Flights
    // extensions); the rest of the module reads it (stats, tests).

    /// The checks waiting, by id; an answered check is not here.
    var checks: [InventoryPendingCheck.ID: InventoryPendingCheck] = [:]
    /// The flights queued or out, by id; a flight that ended, or will never be sent, is not here.
    var flights: [InventoryFlight.ID: InventoryFlight] = [:]
    /// The newest flight a new check may join for each SKU (queued or sent, not cancelling).
    var flightsBySku: [String: InventoryFlight.ID] = [:]
    /// The flight queued last; while it is still queued, new checks add their SKUs to it.
    var newestQueued: InventoryFlight.ID?
    /// The queue: flights are made, queued and let out in the order of their numbers, so every
    /// flight numbered below this one has been sent, dropped at the front or withdrawn, and the
    /// queued ones are those from here on still `.queued`.
    var nextToAdmit: UInt64 = 0
    /// Flights are sent in the order of their numbers, so the oldest request still out is this
    /// one, if it is below `nextToAdmit` (every flight from here to there is out or still to be
    /// removed; `remove` moves it on).
    var oldestOut: UInt64 = 0
    /// Flights sent and not yet ended: the slots taken.
    var sentCount = 0
    /// Flights waiting for a slot.
    var queuedCount = 0
    var limiter: InventoryAdaptiveLimit
    var breaker: InventoryCircuitBreaker
    var cache = InventoryStaleCache()
    var counters = Counters()
    var wakeUps = InventoryWakeUps()
    private var nextCheckNumber: UInt64 = 0
    private(set) var nextFlightNumber: UInt64 = 0
    /// The time of the event being handled (or of the last one): never goes back.
    private(set) var now: UInt64 = 0
    /// The actions of the event being handled.
    private var actions: [Action] = []

    init(_ configuration: Configuration) {
        var configuration = configuration
        configuration.ceiling = max(1, configuration.ceiling)
        configuration.staleMilliseconds = max(0, configuration.staleMilliseconds)
        configuration.minimumUsefulMilliseconds = max(0, configuration.minimumUsefulMilliseconds)
        self.configuration = configuration
        limiter = InventoryAdaptiveLimit(ceiling: configuration.ceiling, adaptive: configuration.adaptiveLimit)
        breaker = InventoryCircuitBreaker(failureThreshold: configuration.circuitFailures,
                                          coolDownMilliseconds: configuration.circuitCoolDownMilliseconds)
    }

    // MARK: - Events

    /// A check for `skus` (request order, duplicates kept) starts at `now`, to be answered by
    /// `deadline` (`InventoryTime.noDeadline`: none). Returns its id and what to do.
    mutating func startCheck(skus: [String], deadline: UInt64, now: UInt64) -> (InventoryPendingCheck.ID, [Action]) {
        begin(at: now)
        let id = InventoryPendingCheck.ID(number: nextCheckNumber)
        nextCheckNumber += 1
        let distinct = InventoryStockAnswer.distinct(skus)
        let latestStart = InventoryTime.shortlyBefore(deadline, milliseconds: configuration.minimumUsefulMilliseconds, now: now)
        checks[id] = InventoryPendingCheck(id: id, skus: skus, distinct: distinct, deadline: deadline, latestStart: latestStart)
        placeSkus(of: id, distinct)
        if checks[id] != nil, configuration.staleMilliseconds > 0, deadline != InventoryTime.noDeadline {
            wakeUps.add(at: InventoryTime.shortlyBefore(deadline, milliseconds: Self.staleNearDeadlineMilliseconds, now: now), for: id)
        }
        return (id, end())
    }

    /// The flight's request ended at `now` (`end` says how). Ignored for a flight not sent or
    /// already ended.
    mutating func requestEnded(_ flight: InventoryFlight.ID, _ end: RequestEnd, now: UInt64) -> [Action] {
        begin(at: now)
        land(flight, end)
        return self.end()
    }

    /// The check's deadline passed or its client cancelled it (at `now`); ignored once it is answered.
    mutating func interruptCheck(_ check: InventoryPendingCheck.ID, now: UInt64) -> [Action] {
        begin(at: now)
        if let waiting = checks[check] {
            // The engine's deadline and this source's clock may differ by a hair.
            let timeUp = InventoryTime.adding(InventoryTime.nanosecondsPerMillisecond, to: now) >= waiting.deadline
            finish(check, .failure(.interrupted), timeUp: timeUp)
        }
        return end()
    }

    /// The timer fired at `now`: checks at their stale time are answered from stale levels if
    /// every SKU they lack has one (the others keep waiting).
    mutating func timerFired(now: UInt64) -> [Action] {
        begin(at: now)
        for check in wakeUps.timerFired(now: now) {
            answerFromStaleNearDeadline(check)
        }
        return end()
    }

    // MARK: - What the table holds

    /// Where the check is, or nil once it is answered (or if it never started).
    func state(of check: InventoryPendingCheck.ID) -> InventoryPendingCheck.State? {
        checks[check]?.state
    }

    /// A snapshot of what the table is doing and has done (`rpc.stats`' inventory section).
    var stats: InventoryStats {
        InventoryStats(
            limit: limiter.limit, ceiling: configuration.ceiling, inFlight: sentCount, queued: queuedCount,
            coalescedJoins: counters.coalescedJoins, shed: counters.shed,
            staleAnswers: counters.staleAnswers, staleLevels: counters.staleLevels, staleCacheEntries: cache.count,
            circuit: breaker.stateName, circuitOpened: breaker.timesOpened, refusedWhileOpen: counters.refusedWhileOpen,
            upstreamRequests: counters.upstreamRequests, answered: counters.answered,
            upstreamFailures: counters.upstreamFailures, cancelled: counters.cancelled, notSentTooLate: counters.notSentTooLate,
            latencyRecentMs: limiter.baselineNs == nil ? nil : limiter.recentNs.map { Int(($0 / 1_000_000).rounded()) },
            latencyBaselineMs: limiter.recentNs == nil ? nil : limiter.baselineNs.map { Int(($0 / 1_000_000).rounded()) })
    }

    // MARK: - Within an event

    private mutating func begin(at time: UInt64) {
        precondition(actions.isEmpty, "one event at a time")
        now = max(now, time)
    }

    /// The event's actions, ending with the timer's new time if it must move.
    private mutating func end() -> [Action] {
        if let time = wakeUps.timeToArm(isWaiting: { checks[$0] != nil }) {
            actions.append(.wakeUp(at: time))
        }
        defer { actions = [] }
        return actions
    }

    mutating func emit(_ action: Action) {
        actions.append(action)
    }

    /// The id for a new flight.
    mutating func makeFlightID() -> InventoryFlight.ID {
        defer { nextFlightNumber += 1 }
        return InventoryFlight.ID(number: nextFlightNumber)
    }

    // MARK: - Links between checks and flights

    /// The check waits on the flight: both sides know it.
    mutating func attach(_ check: InventoryPendingCheck.ID, to flight: InventoryFlight.ID) {
        checks[check]?.flights.insert(flight)
        flights[flight]?.waiters.insert(check)
    }

    /// Undoes `attach`.
    mutating func detach(_ check: InventoryPendingCheck.ID, from flight: InventoryFlight.ID) {
        checks[check]?.flights.remove(flight)
        flights[flight]?.waiters.remove(check)
    }

    /// The check waits on a flight another check started (counted once per flight it joins).
    mutating func join(_ check: InventoryPendingCheck.ID, _ flight: InventoryFlight.ID) {
        guard checks[check]?.flights.contains(flight) == false else { return }
        attach(check, to: flight)
        counters.coalescedJoins += 1
    }
}
