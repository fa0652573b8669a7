import XCTest
@testable import ShopAPI

/// `InventoryFlightTable` driven by thousands of seeded random events (checks starting with random
/// SKUs and deadlines, time passing, requests answered, failing or cancelled, clients cancelling,
/// deadlines and the timer firing as the owner would make them), in every configuration, checking
/// after every event what the table promises: each check answered exactly once, with its SKUs in
/// its order; never a level the service did not give (fresh ones given while the check waited,
/// stale ones marked with their true age, within the limit); never more requests out than the
/// ceiling; checks and flights linked both ways; and nothing left behind at the end.
final class InventoryFlightTableInvariantTests: XCTestCase {
    private typealias Action = InventoryFlightTable.Action
    private typealias Check = InventoryPendingCheck.ID
    private typealias Flight = InventoryFlight.ID
    private let ms: UInt64 = 1_000_000

    /// The test's model of the owner and the service.
    private struct World {
        var table: InventoryFlightTable
        var random: SplitMix64
        var now: UInt64 = 1_000_000_000_000
        var checks: [Check: (skus: [String], deadline: UInt64, startedAt: UInt64)] = [:]
        var answered = 0
        var out: [Flight: (skus: [String], cancelled: Bool)] = [:]
        /// Every value the service gave: SKU → (when, value).
        var given: [String: [(at: UInt64, value: Int)]] = [:]
        var timerAt: UInt64?
        var answers = 0
    }

    private static let skus = (1...12).map { "SKU-" + String(repeating: "0", count: $0 < 10 ? 3 : 2) + String($0) }

    func test_randomEvents_inEveryConfiguration_keepEveryPromise() {
        let configurations: [(String, (inout InventoryFlightTable.Configuration) -> Void)] = [
            ("defaults", { _ in }),
            ("one slot, stale on", { $0.ceiling = 1; $0.staleMilliseconds = 2_000 }),
            ("coalescing off", { $0.coalescing = false; $0.ceiling = 3 }),
            ("fixed limit", { $0.adaptiveLimit = false; $0.ceiling = 2 }),
            ("stale on, a quick breaker", { $0.ceiling = 4; $0.staleMilliseconds = 1_500; $0.circuitFailures = 3; $0.circuitCoolDownMilliseconds = 400 }),
        ]
        for (name, configure) in configurations {
            for seed: UInt64 in 1...4 {
                var configuration = InventoryFlightTable.Configuration()
                configure(&configuration)
                run(configuration, seed: seed, steps: 2_500, name: "\(name), seed \(seed)")
            }
        }
    }

    private func run(_ configuration: InventoryFlightTable.Configuration, seed: UInt64, steps: Int, name: String) {
        var world = World(table: InventoryFlightTable(configuration), random: SplitMix64(seed: seed))
        for _ in 0..<steps {
            switch world.random.next(below: 10) {
            case 0...3:
                let count = 1 + world.random.next(below: 3)
                let skus = (0..<count).map { _ in world.random.pick(Self.skus) }
                let deadline = world.random.next(below: 10) == 0
                    ? InventoryTime.noDeadline : world.now + UInt64(50 + world.random.next(below: 3_000)) * ms
                let (check, actions) = world.table.startCheck(skus: skus, deadline: deadline, now: world.now)
                XCTAssertNil(world.checks[check], "\(name): a new id")
                world.checks[check] = (skus, deadline, world.now)
                apply(actions, to: &world, name)
            case 4...5:
                world.now += UInt64(world.random.next(below: 200)) * ms
                deliverTime(&world, name)
            case 6...8:
                guard let flight = world.out.keys.sorted().randomElement(using: &world.random) else { continue }
                end(flight, in: &world, name)
            default:
                guard let check = world.checks.keys.sorted().randomElement(using: &world.random) else { continue }
                apply(world.table.interruptCheck(check, now: world.now), to: &world, name)  // its client cancels
            }
            checkLinks(world.table, name)
        }
        // The end: every deadline passes, every request ends.
        while !world.checks.isEmpty || !world.out.isEmpty {
            world.now += 1_000 * ms
            deliverTime(&world, name)
            for flight in world.out.keys.sorted() { end(flight, in: &world, name) }
            for check in world.checks.keys.sorted() where world.checks[check]?.deadline == InventoryTime.noDeadline {
                apply(world.table.interruptCheck(check, now: world.now), to: &world, name)
            }
        }
        XCTAssertTrue(world.table.checks.isEmpty, "\(name): no check left behind")
        XCTAssertTrue(world.table.flights.isEmpty, "\(name): no flight left behind")
        XCTAssertEqual(world.table.stats.inFlight, 0, name)
        XCTAssertEqual(world.table.stats.queued, 0, name)
        XCTAssertGreaterThan(world.answered, 500, "\(name): the run did something")
    }

    /// The engine interrupts checks at their deadline; the timer fires at its time.
    private func deliverTime(_ world: inout World, _ name: String) {
        for check in world.checks.keys.sorted() where world.checks[check].map({ $0.deadline <= world.now }) == true {
            apply(world.table.interruptCheck(check, now: world.now), to: &world, name)
        }
        if let at = world.timerAt, at <= world.now {
            world.timerAt = nil
            apply(world.table.timerFired(now: world.now), to: &world, name)
        }
    }

    /// The service ends a request: a cancelled one as cancelled; otherwise mostly an answer (each
    /// SKU's number × 1000 plus a running count, so every answer differs), else an error.
    private func end(_ flight: Flight, in world: inout World, _ name: String) {
        guard let request = world.out.removeValue(forKey: flight) else { return }
        let end: InventoryFlightTable.RequestEnd
        if request.cancelled {
            end = .cancelled(FlightTableDriver.cancelledError)
        } else {
            switch world.random.next(below: 10) {
            case 0: end = .failed(FlightTableDriver.refused)
            case 1: end = .answered(.failure(FlightTableDriver.httpError(503)))
            default:
                world.answers += 1
                let levels = request.skus.map { StockLevel(sku: $0, available: FlightTableDriver.number($0) * 1_000 + world.answers % 1_000) }
                for level in levels { world.given[level.sku, default: []].append((world.now, level.available)) }
                end = .answered(.success(InventoryLevels(levels: levels)))
            }
        }
        apply(world.table.requestEnded(flight, end, now: world.now), to: &world, name)
    }

    private func apply(_ actions: [Action], to world: inout World, _ name: String) {
        for action in actions {
            switch action {
            case let .send(flight, skus, timeout):
                XCTAssertNil(world.out[flight], "\(name): \(flight) sent once")
                XCTAssertFalse(skus.isEmpty, name)
                XCTAssertEqual(Set(skus).count, skus.count, "\(name): distinct SKUs")
                XCTAssertLessThanOrEqual(skus.count, InventoryFlightTable.maxSkusPerRequest, name)
                XCTAssertGreaterThan(world.table.flights[flight]?.waiters.count ?? 0, 0, "\(name): somebody waits on a flight sent")
                if let timeout { XCTAssertGreaterThanOrEqual(timeout, 0, name) }
                world.out[flight] = (skus, false)
                XCTAssertLessThanOrEqual(world.out.count, world.table.configuration.ceiling, "\(name): never above the ceiling")
            case let .cancel(flight):
                XCTAssertEqual(world.out[flight]?.cancelled, false, "\(name): only a request out is cancelled, once")
                world.out[flight]?.cancelled = true
            case let .complete(check, result):
                guard let asked = world.checks.removeValue(forKey: check) else {
                    XCTFail("\(name): \(check) completed twice or never started")
                    continue
                }
                world.answered += 1
                if case let .success(levels) = result { checkLevels(levels.levels, asked: asked, world, name) }
            case let .wakeUp(at):
                world.timerAt = at
            }
        }
        XCTAssertEqual(world.table.stats.inFlight, world.out.count, "\(name): the slots taken are the requests out")
    }

    /// The check's SKUs in its order; each level one the service gave for that SKU: a fresh one
    /// while the check waited, a stale one as old as it says (when the check took it) and no
    /// older than allowed.
    private func checkLevels(_ levels: [StockLevel], asked: (skus: [String], deadline: UInt64, startedAt: UInt64), _ world: World, _ name: String) {
        XCTAssertEqual(levels.map(\.sku), asked.skus, "\(name): its SKUs, in its order")
        for level in levels {
            let given = world.given[level.sku] ?? []
            if let ageMs = level.ageMs {
                XCTAssertGreaterThan(world.table.configuration.staleMilliseconds, 0, "\(name): stale levels only when allowed")
                XCTAssertLessThanOrEqual(ageMs, world.table.configuration.staleMilliseconds, name)
                // The age is taken when the check takes the stale level, which may be before it
                // is answered (it waits for its other SKUs): the service gave it ageMs before a
                // moment between the check's start and now.
                let age = UInt64(ageMs) * ms
                let when = given.filter { $0.at + age <= world.now && $0.at + age + ms > asked.startedAt }
                XCTAssertTrue(when.contains { $0.value == level.available }, "\(name): \(level) is what the service said \(ageMs) ms before")
            } else {
                XCTAssertTrue(given.contains { $0.at >= asked.startedAt && $0.value == level.available },
                              "\(name): \(level) was given while the check waited")
            }
        }
    }

    /// A check waits on a flight exactly when the flight lists it; a flight nobody waits on is
    /// only one being cancelled.
    private func checkLinks(_ table: InventoryFlightTable, _ name: String) {
        for (id, check) in table.checks {
            for flight in check.flights {
                XCTAssertEqual(table.flights[flight]?.waiters.contains(id), true, "\(name): \(id) ↔ \(flight)")
            }
        }
        for (id, flight) in table.flights {
            for check in flight.waiters {
                XCTAssertEqual(table.checks[check]?.flights.contains(id), true, "\(name): \(flight) ↔ \(check)")
            }
            if case .cancelling = flight.state {
                XCTAssertTrue(flight.waiters.isEmpty, name)
            } else {
                XCTAssertFalse(flight.waiters.isEmpty, "\(name): \(id) has a waiter")
            }
        }
    }
}

extension SplitMix64: RandomNumberGenerator {}
