// A check's way through the flight table: its SKUs join pending flights or go into a flight of
// their own (or are answered at once: the open circuit, shedding, stale levels); levels fill it
// as flights land; `finish` answers it, the one place a check leaves the table. Everything here
// runs inside one event, at the table's `now`.

extension InventoryFlightTable {
    // MARK: - Placing a new check's SKUs

    /// Each SKU joins the flight pending for it if the check can wait for that one; the rest go
    /// into one flight (`launch`).
    mutating func placeSkus(of check: InventoryPendingCheck.ID, _ distinct: [String]) {
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
    func canJoin(_ id: InventoryFlight.ID, deadline: UInt64) -> Bool {
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
    mutating func launch(for check: InventoryPendingCheck.ID, skus: [String]) {
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
    mutating func answerFromStale(_ id: InventoryPendingCheck.ID, skus: [String], orFailWith error: ShopError) {
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
    mutating func answerFromStaleNearDeadline(_ id: InventoryPendingCheck.ID) {
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
    mutating func finish(_ id: InventoryPendingCheck.ID, _ result: Result<InventoryLevels, ShopError>, timeUp: Bool) {
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
    func staleLevel(_ sku: String) -> StockLevel? {
        guard configuration.staleMilliseconds > 0,
              let level = cache.level(sku: sku, nowNs: now, maxAgeMs: configuration.staleMilliseconds)
        else { return nil }
        return StockLevel(sku: sku, available: level.available, ageMs: level.ageMs)
    }
}
