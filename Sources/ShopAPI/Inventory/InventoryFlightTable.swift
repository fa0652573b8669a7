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
    // The state below is changed only by the events, all in this file (`private(set)`); the rest
    // of the module reads it (stats, tests).

    /// The checks waiting, by id; an answered check is not here.
    private(set) var checks: [InventoryPendingCheck.ID: InventoryPendingCheck] = [:]
    /// The flights queued or out, by id; a flight that ended, or will never be sent, is not here.
    private(set) var flights: [InventoryFlight.ID: InventoryFlight] = [:]
    /// The newest flight a new check may join for each SKU (queued or sent, not cancelling).
    private(set) var flightsBySku: [String: InventoryFlight.ID] = [:]
    /// The flight queued last; while it is still queued, new checks add their SKUs to it.
    private(set) var newestQueued: InventoryFlight.ID?
    /// The queue: flights are made, queued and let out in the order of their numbers, so every
    /// flight numbered below this one has been sent, dropped at the front or withdrawn, and the
    /// queued ones are those from here on still `.queued`.
    private(set) var nextToAdmit: UInt64 = 0
    /// Flights are sent in the order of their numbers, so the oldest request still out is this
    /// one, if it is below `nextToAdmit` (every flight from here to there is out or still to be
    /// removed; `remove` moves it on).
    private(set) var oldestOut: UInt64 = 0
    /// Flights sent and not yet ended: the slots taken.
    private(set) var sentCount = 0
    /// Flights waiting for a slot.
    private(set) var queuedCount = 0
    private(set) var limiter: InventoryAdaptiveLimit
    private(set) var breaker: InventoryCircuitBreaker
    private(set) var cache = InventoryStaleCache()
    private(set) var counters = Counters()
    private(set) var wakeUps = InventoryWakeUps()
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

    private mutating func emit(_ action: Action) {
        actions.append(action)
    }

    /// The id for a new flight.
    private mutating func makeFlightID() -> InventoryFlight.ID {
        defer { nextFlightNumber += 1 }
        return InventoryFlight.ID(number: nextFlightNumber)
    }

    // MARK: - Links between checks and flights

    /// The check waits on the flight: both sides know it.
    private mutating func attach(_ check: InventoryPendingCheck.ID, to flight: InventoryFlight.ID) {
        checks[check]?.flights.insert(flight)
        flights[flight]?.waiters.insert(check)
    }

    /// Undoes `attach`.
    private mutating func detach(_ check: InventoryPendingCheck.ID, from flight: InventoryFlight.ID) {
        checks[check]?.flights.remove(flight)
        flights[flight]?.waiters.remove(check)
    }

    /// The check waits on a flight another check started (counted once per flight it joins).
    private mutating func join(_ check: InventoryPendingCheck.ID, _ flight: InventoryFlight.ID) {
        guard checks[check]?.flights.contains(flight) == false else { return }
        attach(check, to: flight)
        counters.coalescedJoins += 1
    }
}

// MARK: - A check's way

// A check's way through the flight table: its SKUs join pending flights or go into a flight of
// their own (or are answered at once: the open circuit, shedding, stale levels); levels fill it
// as flights land; `finish` answers it, the one place a check leaves the table. Everything here
// runs inside one event, at the table's `now`.

extension InventoryFlightTable {
    // MARK: - Placing a new check's SKUs

    /// Each SKU joins the flight pending for it if the check can wait for that one; the rest go
    /// into one flight (`launch`).
    private mutating func placeSkus(of check: InventoryPendingCheck.ID, _ distinct: [String]) {
        guard let deadline = checks[check]?.deadline else { return }
        var uncovered: [String] = []
        for sku in distinct {
            if configuration.coalescing, let flight = flightsBySku[sku], canJoin(flight, deadline: deadline) {
                join(check, flight)
            } else {
                uncovered.append(sku)
            }
        }
        if !uncovered.isEmpty {
            launch(for: check, skus: uncovered)
        } else if checks[check]?.missing.isEmpty == true {
            finish(check, .success(InventoryLevels(levels: [])), timeUp: false)  // no SKUs at all
        }
    }

    /// A check may join a flight still queued (it is as early as a new one could be), or a sent
    /// one whose answer is expected before the check's deadline: `recent` after it was sent and,
    /// once it has been out longer than that, no sooner than it has been out so far (a request the
    /// service sits on is not joined for ever).
    private func canJoin(_ id: InventoryFlight.ID, deadline: UInt64) -> Bool {
        guard let flight = flights[id] else { return false }
        switch flight.state {
        case .queued:
            return true
        case let .sent(sentAtNs):
            let age = now - min(sentAtNs, now)
            let expectedAnswer = max(InventoryTime.adding(limiter.recentNs ?? 0, to: sentAtNs), InventoryTime.adding(age, to: now))
            return expectedAnswer < deadline
        case .cancelling:
            return false
        }
    }

    /// One new flight for `skus`, unless the circuit refuses it or it could not be answered in
    /// time (then those SKUs are answered from stale levels, or the check fails); while every slot
    /// is busy, the SKUs join the newest flight still queued instead, if it has room.
    private mutating func launch(for check: InventoryPendingCheck.ID, skus: [String]) {
        guard let deadline = checks[check]?.deadline else { return }
        let probe: Bool
        switch breaker.admit(now: now) {
        case let .refuse(retryAfterMs):
            counters.refusedWhileOpen += 1
            return answerFromStale(check, skus: skus, orFailWith: .inventoryCircuitOpen(retryAfterMs: retryAfterMs))
        case let .send(isProbe):
            probe = isProbe
        }
        if configuration.adaptiveLimit, let latency = expectedLatencyNs(),
           InventoryTime.adding(latency * Self.shedMarginOfLatency, to: predictedAnswerNs(expectedLatencyNs: latency)) > deadline {
            if probe { breaker.record(.none, probe: true, now: now) }
            counters.shed += 1
            let detail = "the inventory service is too busy to answer before the deadline (\(queuedCount) requests queued)"
            return answerFromStale(check, skus: skus, orFailWith: .inventoryShed(detail: detail))
        }
        // Batching: a flight is queued only while every slot is busy; the newest one stands where
        // a new flight would (at the back of the queue) and leaves no later.
        if configuration.coalescing, !probe, let newest = newestQueued, let flight = flights[newest], flight.state == .queued,
           flight.skus.count + skus.count <= Self.maxSkusPerRequest {
            flights[newest]?.add(skus)
            join(check, newest)
            for sku in skus { flightsBySku[sku] = newest }
            return
        }
        let flight = InventoryFlight(id: makeFlightID(), skus: skus, probe: probe)
        flights[flight.id] = flight
        attach(check, to: flight.id)
        if configuration.coalescing {
            for sku in skus { flightsBySku[sku] = flight.id }
            newestQueued = flight.id
        }
        queuedCount += 1
        admitQueued()
    }

    // MARK: - Answering a check

    /// `skus` of the check will get no fresh level: each it still lacks is answered from a stale
    /// level no older than `staleMilliseconds`, or, if one has none, the check fails with `error`.
    private mutating func answerFromStale(_ id: InventoryPendingCheck.ID, skus: [String], orFailWith error: ShopError) {
        guard var check = checks[id] else { return }
        let wanted = skus.filter { check.missing.contains($0) }
        guard !wanted.isEmpty else { return }
        var stale: [StockLevel] = []
        for sku in wanted {
            guard let level = staleLevel(sku) else { return finish(id, .failure(error), timeUp: false) }
            stale.append(level)
        }
        let complete = check.take(stale)
        checks[id] = check
        if complete { finish(id, .success(check.levels), timeUp: false) }
    }

    /// The stale time of a check still waiting: it is answered from stale levels if every SKU it
    /// lacks has one young enough; otherwise it keeps waiting.
    private mutating func answerFromStaleNearDeadline(_ id: InventoryPendingCheck.ID) {
        guard var check = checks[id] else { return }
        var stale: [StockLevel] = []
        for sku in check.missing {
            guard let level = staleLevel(sku) else { return }
            stale.append(level)
        }
        _ = check.take(stale)
        checks[id] = check
        finish(id, .success(check.levels), timeUp: true)
    }

    /// Answers the check: it leaves the table and its flights, and its `.complete` is emitted.
    /// `timeUp`: it stops waiting because its time is up (its deadline, or the stale answer given
    /// shortly before it), so a request cancelled because of it counts against the service.
    private mutating func finish(_ id: InventoryPendingCheck.ID, _ result: Result<InventoryLevels, ShopError>, timeUp: Bool) {
        guard let check = checks[id] else { return }
        if case let .success(levels) = result {
            let staleCount = levels.levels.count(where: \.isStale)
            if staleCount > 0 {
                counters.staleAnswers += 1
                counters.staleLevels += staleCount
            }
        }
        for flight in check.flights.sorted() {
            detach(id, from: flight)
            release(flight, timeUp: timeUp)
        }
        checks[id] = nil
        emit(.complete(id, result))
    }

    /// The stale level of `sku` young enough to be answered now, marked with its age.
    private func staleLevel(_ sku: String) -> StockLevel? {
        guard configuration.staleMilliseconds > 0,
              let level = cache.level(sku: sku, nowNs: now, maxAgeMs: configuration.staleMilliseconds)
        else { return nil }
        return StockLevel(sku: sku, available: level.available, ageMs: level.ageMs)
    }
}

// MARK: - A flight's way

// A flight's way through the flight table: queued until a slot is free (`admitQueued`), then sent,
// or shed, or dropped at the front of the queue (`admit`); its end gives levels or the failure to
// every check waiting on it and frees its slot (`land`); when its last check leaves, it is
// withdrawn or cancelled (`release`). Everything here runs inside one event, at the table's `now`.

extension InventoryFlightTable {
    // MARK: - The queue

    /// While a slot is free, the oldest queued flight goes to the front (`admit`).
    private mutating func admitQueued() {
        while sentCount < limiter.limit, nextToAdmit < nextFlightNumber {
            let id = InventoryFlight.ID(number: nextToAdmit)
            nextToAdmit += 1
            guard flights[id]?.state == .queued else { continue }  // withdrawn
            queuedCount -= 1
            admit(id)
        }
    }

    /// The flight reached the front of the queue with a slot free: send its request, or, if it is
    /// too late for every waiter (or for some of them, at the latency measured lately), answer
    /// those now instead (adaptive limit) or leave them to their deadline (fixed limit).
    private mutating func admit(_ id: InventoryFlight.ID) {
        guard let flight = flights[id] else { return }
        let waiters = flight.waiters.sorted()
        guard let latestStart = waiters.compactMap({ checks[$0]?.latestStart }).max() else {
            return discardUnsent(id)  // nobody waits (a withdrawn flight never gets here)
        }
        guard now < latestStart else {
            counters.notSentTooLate += 1
            for check in waiters { detach(check, from: id) }
            discardUnsent(id)
            if configuration.adaptiveLimit {
                counters.shed += waiters.count
                let error = ShopError.inventoryShed(detail: "the inventory service's queue did not reach this check in time")
                for check in waiters { answerFromStale(check, skus: flight.skus, orFailWith: error) }
            } else {
                for check in waiters { checks[check]?.state = .waitingForDeadline }
            }
            return
        }
        if configuration.adaptiveLimit, let latency = expectedLatencyNs() {
            let expectedAnswer = InventoryTime.adding(latency, to: now)
            let error = ShopError.inventoryShed(detail: "the inventory service answers in about \(Int(latency / 1_000_000)) ms, after this check's deadline")
            for check in waiters where checks[check].map({ $0.deadline < expectedAnswer }) == true {
                detach(check, from: id)
                counters.shed += 1
                answerFromStale(check, skus: flight.skus, orFailWith: error)
            }
        }
        guard let remaining = flights[id]?.waiters, !remaining.isEmpty else {
            counters.notSentTooLate += 1
            discardUnsent(id)
            return
        }
        let earliestDeadline = remaining.compactMap { checks[$0]?.deadline }.min() ?? InventoryTime.noDeadline
        flights[id]?.state = .sent(atNs: now)
        if newestQueued == id { newestQueued = nil }
        sentCount += 1
        counters.upstreamRequests += 1
        emit(.send(id, skus: flight.skus, timeoutMilliseconds: InventoryTime.millisecondsLeft(until: earliestDeadline, now: now)))
    }

    /// A flight that will not be sent leaves the table; a probe lets the next check probe.
    private mutating func discardUnsent(_ id: InventoryFlight.ID) {
        guard let flight = remove(id) else { return }
        if flight.probe { breaker.record(.none, probe: true, now: now) }
    }

    /// Takes the flight out of the table, and out of `flightsBySku` and `newestQueued`; moves
    /// `oldestOut` past flights no longer in the table.
    @discardableResult
    private mutating func remove(_ id: InventoryFlight.ID) -> InventoryFlight? {
        guard let flight = flights.removeValue(forKey: id) else { return nil }
        unregisterSkus(of: flight)
        if newestQueued == id { newestQueued = nil }
        while oldestOut < nextToAdmit, flights[InventoryFlight.ID(number: oldestOut)] == nil {
            oldestOut += 1
        }
        return flight
    }

    /// No new check may join the flight any more.
    private mutating func unregisterSkus(of flight: InventoryFlight) {
        for sku in flight.skus where flightsBySku[sku] == flight.id {
            flightsBySku[sku] = nil
        }
    }

    // MARK: - Leaving a flight

    /// The flight just lost a waiter: if none is left, a queued one is withdrawn and a sent one's
    /// request cancelled (`timeUp` as in `finish`).
    private mutating func release(_ id: InventoryFlight.ID, timeUp: Bool) {
        guard let flight = flights[id], flight.waiters.isEmpty else { return }
        switch flight.state {
        case .queued:
            queuedCount -= 1
            discardUnsent(id)
        case let .sent(atNs):
            flights[id]?.state = .cancelling(sentAtNs: atNs, timeUp: timeUp)
            unregisterSkus(of: flight)
            emit(.cancel(id))
        case .cancelling:
            break
        }
    }

    // MARK: - A request's end

    /// The flight's request ended: a latency sample and the breaker's verdict are recorded, the
    /// levels (or the failure) go to every check waiting, and only then is the slot given back, so
    /// the flight the queue lets out next is judged by them.
    private mutating func land(_ id: InventoryFlight.ID, _ end: RequestEnd) {
        guard let flight = flights[id], let sentAtNs = flight.sentAtNs else { return }
        let timeUp: Bool
        if case let .cancelling(_, wasTimeUp) = flight.state { timeUp = wasTimeUp } else { timeUp = false }
        let result: Result<InventoryLevels, ShopError>
        let verdict: InventoryCircuitBreaker.Verdict
        switch end {
        case let .answered(levels):
            limiter.record(latencyNs: now - min(sentAtNs, now))
            result = levels
            if case .success = levels {
                counters.answered += 1
                verdict = .success
            } else {
                counters.upstreamFailures += 1
                verdict = .failure
            }
        case let .failed(error):
            counters.upstreamFailures += 1
            result = .failure(error)
            verdict = .failure
        case let .cancelled(error):
            // Cancelled because its checks' time was up: the service was too slow, and this is how
            // slow at least. Cancelled by its client: it says nothing of the service.
            if timeUp { limiter.record(latencyNs: now - min(sentAtNs, now)) }
            counters.cancelled += 1
            result = .failure(error)
            verdict = timeUp ? .failure : .none
        }
        breaker.record(verdict, probe: flight.probe, now: now)

        let waiters = flight.waiters.sorted()
        for check in waiters { detach(check, from: id) }
        remove(id)
        sentCount -= 1
        switch result {
        case let .success(levels):
            storeFresh(levels.levels)
            for check in waiters {
                guard var waiting = checks[check] else { continue }
                let complete = waiting.take(levels.levels)
                checks[check] = waiting
                if complete { finish(check, .success(waiting.levels), timeUp: false) }
            }
        case let .failure(error):
            for check in waiters { answerFromStale(check, skus: flight.skus, orFailWith: error) }
        }
        admitQueued()
    }

    private mutating func storeFresh(_ levels: [StockLevel]) {
        guard configuration.staleMilliseconds > 0 else { return }
        for level in levels {
            cache.store(sku: level.sku, available: level.available, nowNs: now)
        }
    }

    // MARK: - Predictions

    /// How long the service takes to answer now, as far as can be told (nil before the first
    /// measurement): the recent latency, or, if a request still out is older than that, its age,
    /// so a service that stops answering is noticed while it does so, not only when its slow
    /// answers (or their cancellations) are finally measured.
    func expectedLatencyNs() -> Double? {
        guard let recent = limiter.recentNs else { return nil }
        guard oldestOut < nextToAdmit, let sentAtNs = flights[InventoryFlight.ID(number: oldestOut)]?.sentAtNs, sentAtNs < now
        else { return recent }
        return max(recent, Double(now - sentAtNs))
    }

    /// When a flight queued now would be answered, at `latency`: at once if a slot is free (one
    /// latency); else, conservatively, as if every request out had just started: the flights ahead
    /// and this one leave in rounds of `limit`, each round a latency, and its answer takes one more.
    private func predictedAnswerNs(expectedLatencyNs latency: Double) -> UInt64 {
        let limit = limiter.limit
        guard sentCount >= limit else { return InventoryTime.adding(latency, to: now) }
        let rounds = Double(queuedCount + 1) / Double(limit) + 1
        return InventoryTime.adding(latency * rounds, to: now)
    }
}
