import Dispatch
import FoundationEssentials  // URL
import SharedSupport

// How checks and requests meet (HTTPInventorySource's doc says what; this file says how). One lock,
// `table`, orders everything below. Functions named `…_locked` run under it and never call out:
// what must happen after it is released (completions, entering the gate, cancelling a request)
// they append to an `AfterUnlock`, which the caller runs once the lock is released.
//
// The way of one check:
//   checkInventory → startCheck_locked: join pending flights for its SKUs; one new flight for the
//   rest (or, if the circuit refuses it or the queue could not serve it in time, answer those SKUs
//   from stale levels or fail) → gate.enter → admitted: send the request (or drop it if every
//   waiter is too late) → landed: levels to every waiter (and the stale cache), or failure: stale
//   levels or the error → finish_locked: the check's completion, exactly once.
//   Interruption (deadline, cancel) → interrupt → finish_locked(.interrupted): leave every flight;
//   a flight nobody waits on is withdrawn from the gate or its request cancelled.

/// Work to do once the table lock is released, in order.
struct AfterUnlock {
    private var actions: [() -> Void] = []

    mutating func append(_ action: @escaping () -> Void) { actions.append(action) }

    func run() {
        for action in actions { action() }
    }
}

extension HTTPInventorySource {
    // MARK: - A new check

    func startCheck_locked(_ check: InventoryPendingCheck, distinct: [String], in table: inout Table, after: inout AfterUnlock) {
        let now = DispatchTime.now().uptimeNanoseconds
        var uncovered: [String] = []
        for sku in distinct {
            if coalescing, let flight = table.flightsBySku[sku], canJoin(flight, check, nowNs: now, recentLatencyNs: table.limiter.recentNs) {
                join_locked(check, flight, in: &table)
            } else {
                uncovered.append(sku)
            }
        }
        guard !uncovered.isEmpty else { return }
        launchFlight_locked(for: check, skus: uncovered, nowNs: now, in: &table, after: &after)
    }

    /// A check may join a flight still queued here (it is as early as a new one could be), or a
    /// sent one whose answer is expected before the check's deadline: at the latency measured
    /// lately after it was sent, and, once it has been out longer than that, no sooner than it has
    /// been out so far (a request the service sits on is not joined for ever).
    private func canJoin(_ flight: InventoryFlight, _ check: InventoryPendingCheck, nowNs: UInt64, recentLatencyNs: Double?) -> Bool {
        switch flight.phase {
        case .queued:
            return true
        case let .sent(sentAtNs, _):
            let age = nowNs &- min(sentAtNs, nowNs)
            let expectedAnswer = max(sentAtNs &+ UInt64(recentLatencyNs ?? 0), nowNs &+ age)
            return expectedAnswer < check.deadline.uptimeNanoseconds
        case .finished:
            return false
        }
    }

    private func attach(_ check: InventoryPendingCheck, to flight: InventoryFlight) {
        flight.waiters[check.id] = check
        check.flights[flight.id] = flight
    }

    /// `check` waits on a flight another check started (counted once per flight it joins).
    private func join_locked(_ check: InventoryPendingCheck, _ flight: InventoryFlight, in table: inout Table) {
        guard check.flights[flight.id] == nil else { return }
        attach(check, to: flight)
        table.counters.coalescedJoins += 1
    }

    /// One new request for `skus`, unless the circuit refuses it or the queue could not let it out
    /// in time: then those SKUs are answered from stale levels, or the check fails.
    private func launchFlight_locked(for check: InventoryPendingCheck, skus: [String], nowNs: UInt64,
                                     in table: inout Table, after: inout AfterUnlock) {
        let probe: Bool
        switch breaker.admit() {
        case let .refuse(retryAfterMs):
            table.counters.refusedWhileOpen += 1
            return answerFromStale_locked(check, skus: skus, orFailWith: .inventoryCircuitOpen(retryAfterMs: retryAfterMs), in: &table, after: &after)
        case let .send(isProbe):
            probe = isProbe
        }
        if adaptiveLimit, let expectedLatency = expectedLatencyNs_locked(nowNs: nowNs, in: &table),
           predictedAnswerNs(nowNs: nowNs, expectedLatencyNs: expectedLatency) &+ UInt64(expectedLatency * Self.shedMarginOfLatency)
               > check.deadline.uptimeNanoseconds {
            if probe { after.append { [breaker] in breaker.record(.none, probe: true) } }
            table.counters.shed += 1
            let detail = "the inventory service is too busy to answer before the deadline (\(gate.counts.waiting) requests queued)"
            return answerFromStale_locked(check, skus: skus, orFailWith: .inventoryShed(detail: detail), in: &table, after: &after)
        }
        // Batching: while every slot is busy, the SKUs join the newest request still queued, if it
        // has room; it stands where a new request would (at the back of the queue) and leaves no
        // later. (With a slot free, the queued request is on its way out: a request of their own
        // leaves as soon.)
        if coalescing, !probe, let newest = table.newestQueuedFlight, newest.isQueued,
           newest.skus.count + skus.count <= Self.maxSkusPerRequest, gate.allSlotsBusy {
            newest.add(skus)
            join_locked(check, newest, in: &table)
            for sku in skus { table.flightsBySku[sku] = newest }
            return
        }
        let flight = InventoryFlight(skus: skus, ticket: gate.makeTicket(), probe: probe)
        attach(check, to: flight)
        if coalescing {
            for sku in skus { table.flightsBySku[sku] = flight }
            table.newestQueuedFlight = flight
        }
        after.append { [gate] in
            gate.enter(flight.ticket) { [weak self] in self?.admitted(flight) }
        }
    }

    /// The most SKUs one request asks for when checks' SKUs are batched into a queued request: the
    /// most one check may ask (protocol.md), so the service sees no larger request than a check's.
    static let maxSkusPerRequest = 100

    /// How much later than predicted, as a share of the recent latency, a new request's answer may
    /// come and still be in time for its check: a check predicted closer to its deadline than this
    /// is shed at once, since the queue's jitter would most likely make it too late at the front
    /// (`shedWaitersTooLateForAnAnswer_locked`), answered only after waiting most of its budget.
    static let shedMarginOfLatency = 0.25

    /// How long the service takes to answer now, as far as can be told (nil before the first
    /// measurement): the recent latency, or, if a request still out is older than that, its age
    /// — so a service that stops answering is noticed while it does so, not only when its slow
    /// answers (or their cancellations) are finally measured.
    func expectedLatencyNs_locked(nowNs: UInt64, in table: inout Table) -> Double? {
        guard let recent = table.limiter.recentNs else { return nil }
        guard let oldestSentAt = table.sentInOrder.first?.sentAtNs, oldestSentAt < nowNs else { return recent }
        return max(recent, Double(nowNs - oldestSentAt))
    }

    /// Drops finished requests from the front of `sentInOrder`, so its first is the oldest still
    /// out. Called wherever a sent request finishes (`landed`, the only place), so that holds
    /// between calls; requests mostly finish in the order sent, so it stays about as long as the
    /// requests out.
    func dropFinishedFromSentInOrder_locked(in table: inout Table) {
        let finished = table.sentInOrder.prefix { $0.sentAtNs == nil }.count
        if finished > 0 { table.sentInOrder.removeFirst(finished) }
    }

    /// When a request entering the gate now would be answered, at the latency measured lately
    /// (`latency`): at once if a slot is free (one latency); else, conservatively, as if every
    /// running request had just started: the requests ahead and this one leave in rounds of
    /// `limit`, each round a latency, and its answer takes one more.
    private func predictedAnswerNs(nowNs: UInt64, expectedLatencyNs latency: Double) -> UInt64 {
        let gateNow = gate.counts
        guard gateNow.running >= gateNow.limit else { return nowNs &+ UInt64(latency) }
        let rounds = Double(gateNow.waiting + 1) / Double(gateNow.limit) + 1
        return nowNs &+ UInt64(latency * rounds)
    }

    // MARK: - A request's way

    /// The gate admitted `flight`: send its request, or drop it if nobody waits or every waiter is
    /// too late for it.
    private func admitted(_ flight: InventoryFlight) {
        var after = AfterUnlock()
        let request: InventoryHTTPSession.Request? = table.withLock { table in
            guard case .queued = flight.phase else { return nil }
            guard let latestStart = flight.waiters.values.map(\.latestStart.uptimeNanoseconds).max() else {
                drop_locked(flight, in: &table, after: &after)
                return nil
            }
            let now = DispatchTime.now()
            guard now.uptimeNanoseconds < latestStart else {
                table.counters.notSentTooLate += 1
                // Shedding answers them now; without it they wait for their deadline, as before.
                if adaptiveLimit {
                    table.counters.shed += flight.waiters.count
                    let detail = "the inventory service's queue did not reach this check in time"
                    dropAnsweringWaiters_locked(flight, orFailWith: .inventoryShed(detail: detail), in: &table, after: &after)
                } else {
                    for check in flight.waiters.values { check.flights[flight.id] = nil }
                    drop_locked(flight, in: &table, after: &after)
                }
                return nil
            }
            // Waiters whose deadline comes before an answer would, at the latency measured lately,
            // are answered now (shed) instead of at their deadline; nobody left: not sent.
            shedWaitersTooLateForAnAnswer_locked(flight, nowNs: now.uptimeNanoseconds, in: &table, after: &after)
            guard !flight.waiters.isEmpty else {
                table.counters.notSentTooLate += 1
                drop_locked(flight, in: &table, after: &after)
                return nil
            }
            // Built from the SKUs as they are now that no check can add any. Each check's own SKUs
            // made a URL on this base when it started, so this fails only if that did.
            guard let url = InventoryStockAnswer.requestURL(base: baseURL, skus: flight.skus) else {
                let error = ShopError.inventoryUnavailable(detail: "cannot build a request URL from \(baseURL)", status: nil)
                dropAnsweringWaiters_locked(flight, orFailWith: error, in: &table, after: &after)
                return nil
            }
            let earliestDeadline = flight.waiters.values.map(\.deadline).min() ?? .distantFuture
            let request = session.makeRequest(url, deadline: earliestDeadline) { [weak self] outcome in
                self?.landed(flight, outcome)
            }
            flight.phase = .sent(atNs: now.uptimeNanoseconds, request: request)
            table.sentInOrder.append(flight)
            table.counters.upstreamRequests += 1
            return request
        }
        request?.resume()
        after.run()
    }

    /// With the adaptive limit: the waiters of `flight`, about to be sent, whose deadline comes
    /// before its answer is expected (now plus the recent latency) leave it and are answered at
    /// once, from stale levels or shed, instead of failing at their deadline.
    private func shedWaitersTooLateForAnAnswer_locked(_ flight: InventoryFlight, nowNs: UInt64,
                                                      in table: inout Table, after: inout AfterUnlock) {
        guard adaptiveLimit, let latency = expectedLatencyNs_locked(nowNs: nowNs, in: &table) else { return }
        let expectedAnswerNs = nowNs &+ UInt64(latency)
        let hopeless = flight.waiters.values.filter { $0.deadline.uptimeNanoseconds < expectedAnswerNs }
        for check in hopeless {
            flight.waiters[check.id] = nil
            check.flights[flight.id] = nil
            table.counters.shed += 1
            let detail = "the inventory service answers in about \(Int(latency / 1_000_000)) ms, after this check's deadline"
            answerFromStale_locked(check, skus: flight.skus, orFailWith: .inventoryShed(detail: detail), in: &table, after: &after)
        }
    }

    /// A queued flight that will not be sent, whose waiters get no level from it: each is answered
    /// for the flight's SKUs from stale levels, or fails with `error`.
    private func dropAnsweringWaiters_locked(_ flight: InventoryFlight, orFailWith error: ShopError,
                                             in table: inout Table, after: inout AfterUnlock) {
        let waiters = Array(flight.waiters.values)
        drop_locked(flight, in: &table, after: &after)
        for check in waiters {
            check.flights[flight.id] = nil
            answerFromStale_locked(check, skus: flight.skus, orFailWith: error, in: &table, after: &after)
        }
    }

    /// A queued flight that will not be sent: out of the table, its slot given back.
    private func drop_locked(_ flight: InventoryFlight, in table: inout Table, after: inout AfterUnlock) {
        flight.phase = .finished
        flight.waiters = [:]
        unregister_locked(flight, in: &table)
        after.append { [gate, breaker, probe = flight.probe] in
            gate.leave()
            if probe { breaker.record(.none, probe: true) }
        }
    }

    private func unregister_locked(_ flight: InventoryFlight, in table: inout Table) {
        for sku in flight.skus where table.flightsBySku[sku] === flight {
            table.flightsBySku[sku] = nil
        }
    }

    /// The request ended (the client's thread): levels, or the failure, to every waiter.
    private func landed(_ flight: InventoryFlight, _ outcome: Result<InventoryHTTPSession.Answer, InventoryHTTPSession.Failure>) {
        let nowNs = DispatchTime.now().uptimeNanoseconds
        let result = Self.levels(from: outcome, asked: flight.skus, maxBodyBytes: maxBodyBytes)
        var after = AfterUnlock()
        let limit: Int = table.withLock { table in
            let forTime = flight.abandonedForTime
            if let sentAt = flight.sentAtNs {
                switch outcome {
                case .failure(.cancelled) where !forTime: break  // its client cancelled: says nothing of the service
                case .success, .failure(.cancelled): table.limiter.record(latencyNs: nowNs &- sentAt)
                case .failure: break  // refused, lost: not a latency
                }
            }
            switch (outcome, result) {
            case (.failure(.cancelled), _): table.counters.cancelled += 1
            case (_, .success): table.counters.answered += 1
            case (_, .failure): table.counters.upstreamFailures += 1
            }
            let verdict: InventoryCircuitBreaker.Verdict
            switch (outcome, result) {
            case (.failure(.cancelled), _): verdict = forTime ? .failure : .none
            case (_, .success): verdict = .success
            case (_, .failure): verdict = .failure
            }
            after.append { [breaker, probe = flight.probe] in breaker.record(verdict, probe: probe) }

            flight.phase = .finished
            unregister_locked(flight, in: &table)
            dropFinishedFromSentInOrder_locked(in: &table)
            let waiters = Array(flight.waiters.values)
            flight.waiters = [:]
            switch result {
            case let .success(levels):
                if staleMilliseconds > 0 {
                    for level in levels.levels { table.cache.store(sku: level.sku, available: level.available, nowNs: nowNs) }
                }
                for check in waiters {
                    check.flights[flight.id] = nil
                    for level in levels.levels where check.missing.remove(level.sku) != nil {
                        check.found[level.sku] = level
                    }
                    if check.missing.isEmpty { finish_locked(check, .success(check.levels), in: &table, after: &after) }
                }
            case let .failure(error):
                for check in waiters {
                    check.flights[flight.id] = nil
                    answerFromStale_locked(check, skus: flight.skus, orFailWith: error, in: &table, after: &after)
                }
            }
            return table.limiter.limit
        }
        if adaptiveLimit, limit != gate.limit { gate.setLimit(limit) }
        // The slot is given back only now, so the request it lets out is judged by this latency
        // sample and the limit it moved (the gate may admit it on this thread).
        gate.leave()
        after.run()
    }

    // MARK: - Ending a check

    /// `skus` of `check` will get no fresh level: each is answered from a stale level no older than
    /// `staleMilliseconds`, or, if one has none, the check fails with `error`.
    func answerFromStale_locked(_ check: InventoryPendingCheck, skus: [String], orFailWith error: ShopError,
                                in table: inout Table, after: inout AfterUnlock) {
        guard check.completion != nil else { return }
        let wanted = skus.filter { check.missing.contains($0) }
        guard !wanted.isEmpty else { return }
        let nowNs = DispatchTime.now().uptimeNanoseconds
        var stale: [StockLevel] = []
        for sku in wanted {
            guard staleMilliseconds > 0, let level = table.cache.level(sku: sku, nowNs: nowNs, maxAgeMs: staleMilliseconds) else {
                return finish_locked(check, .failure(error), in: &table, after: &after)
            }
            stale.append(StockLevel(sku: sku, available: level.available, ageMs: level.ageMs))
        }
        for level in stale {
            check.missing.remove(level.sku)
            check.found[level.sku] = level
        }
        if check.missing.isEmpty { finish_locked(check, .success(check.levels), in: &table, after: &after) }
    }

    /// Completes `check` (once: a finished check is left alone) and takes it out of its flights.
    func finish_locked(_ check: InventoryPendingCheck, _ result: Result<InventoryLevels, ShopError>, forTime: Bool = false,
                       in table: inout Table, after: inout AfterUnlock) {
        guard let completion = check.completion else { return }
        check.completion = nil
        if case let .success(levels) = result {
            let staleCount = levels.levels.count(where: \.isStale)
            if staleCount > 0 {
                table.counters.staleAnswers += 1
                table.counters.staleLevels += staleCount
            }
        }
        for flight in check.flights.values {
            leave_locked(flight, check, forTime: forTime, in: &table, after: &after)
        }
        check.flights = [:]
        if let registration = check.interruptRegistration {
            check.interruptRegistration = nil
            after.append(registration)
        }
        after.append { completion(result) }
    }

    /// `check` no longer waits on `flight`; a flight nobody waits on is withdrawn or cancelled.
    private func leave_locked(_ flight: InventoryFlight, _ check: InventoryPendingCheck, forTime: Bool,
                              in table: inout Table, after: inout AfterUnlock) {
        guard flight.waiters.removeValue(forKey: check.id) != nil, flight.waiters.isEmpty else { return }
        switch flight.phase {
        case .queued:
            if gate.withdraw(flight.ticket) {
                flight.phase = .finished
                unregister_locked(flight, in: &table)
                if flight.probe { after.append { [breaker] in breaker.record(.none, probe: true) } }
            }
            // Otherwise the gate is admitting it right now: `admitted` finds no waiter and drops it.
        case let .sent(_, request):
            flight.abandonedForTime = forTime
            unregister_locked(flight, in: &table)
            StderrLog.debug("inventory: no check waits on a request any more; cancelling it")
            after.append { request.cancel() }  // `landed` follows with .cancelled
        case .finished:
            break
        }
    }

    /// The check's deadline passed or its client cancelled it.
    func interrupt(_ check: InventoryPendingCheck) {
        var after = AfterUnlock()
        table.withLock { table in
            let forTime = DispatchTime.now().uptimeNanoseconds + 1_000_000 >= check.deadline.uptimeNanoseconds
            finish_locked(check, .failure(.interrupted), forTime: forTime, in: &table, after: &after)
        }
        after.run()
    }

    /// With stale answers on: shortly before its deadline, a check still waiting is answered from
    /// stale levels if every SKU it lacks has one (otherwise it waits for its deadline).
    func scheduleStaleAnswerNearDeadline(_ check: InventoryPendingCheck) {
        guard check.deadline != .distantFuture else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let left = check.deadline.uptimeNanoseconds > now ? check.deadline.uptimeNanoseconds - now : 0
        let margin = min(UInt64(Self.staleNearDeadlineMilliseconds) * 1_000_000, left / 4)
        let when = DispatchTime(uptimeNanoseconds: check.deadline.uptimeNanoseconds - margin)
        DispatchQueue.global().asyncAfter(deadline: when) { [weak self, weak check] in
            guard let self, let check else { return }
            var after = AfterUnlock()
            self.table.withLock { table in
                guard check.completion != nil else { return }
                let lacking = Array(check.missing)
                let nowNs = DispatchTime.now().uptimeNanoseconds
                guard lacking.allSatisfy({ table.cache.level(sku: $0, nowNs: nowNs, maxAgeMs: self.staleMilliseconds) != nil }) else { return }
                let flights = Array(check.flights.values)
                for flight in flights { leave_locked(flight, check, forTime: true, in: &table, after: &after) }
                check.flights = [:]
                let error = ShopError.inventoryShed(detail: "the inventory service did not answer before the deadline")
                answerFromStale_locked(check, skus: lacking, orFailWith: error, in: &table, after: &after)
            }
            after.run()
        }
    }
}
