// A flight's way through the flight table: queued until a slot is free (`admitQueued`), then sent,
// or shed, or dropped at the front of the queue (`admit`); its end gives levels or the failure to
// every check waiting on it and frees its slot (`land`); when its last check leaves, it is
// withdrawn or cancelled (`release`). Everything here runs inside one event, at the table's `now`.

extension InventoryFlightTable {
    // MARK: - The queue

    /// While a slot is free, the oldest queued flight goes to the front (`admit`).
    mutating func admitQueued() {
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
    mutating func release(_ id: InventoryFlight.ID, timeUp: Bool) {
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
    mutating func land(_ id: InventoryFlight.ID, _ end: RequestEnd) {
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
    func predictedAnswerNs(expectedLatencyNs latency: Double) -> UInt64 {
        let limit = limiter.limit
        guard sentCount >= limit else { return InventoryTime.adding(latency, to: now) }
        let rounds = Double(queuedCount + 1) / Double(limit) + 1
        return InventoryTime.adding(latency * rounds, to: now)
    }
}
