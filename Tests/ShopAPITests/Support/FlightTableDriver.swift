@testable import ShopAPI

/// An `InventoryFlightTable` on a clock the test moves: each event happens at `now`, which only
/// `advance` changes, so a test says exactly when everything happens, with no sleeps and no HTTP.
/// Flight and check ids are numbered from 0 in the order made. A value; one test's own.
struct FlightTableDriver {
    typealias Action = InventoryFlightTable.Action
    typealias Check = InventoryPendingCheck.ID
    typealias Flight = InventoryFlight.ID

    static let ms: UInt64 = 1_000_000
    var table: InventoryFlightTable
    /// The clock, in nanoseconds; starts at 1 000 s.
    private(set) var now: UInt64 = 1_000_000 * ms

    init(_ configure: (inout InventoryFlightTable.Configuration) -> Void = { _ in }) {
        var configuration = InventoryFlightTable.Configuration()
        configure(&configuration)
        table = InventoryFlightTable(configuration)
    }

    mutating func advance(ms milliseconds: UInt64) {
        now += milliseconds * Self.ms
    }

    /// The time `milliseconds` from now.
    func later(ms milliseconds: UInt64) -> UInt64 { now + milliseconds * Self.ms }

    /// A check for `skus` starts now, with a deadline `deadlineMs` from now (nil: none).
    mutating func start(_ skus: [String], deadlineMs: UInt64? = 5_000) -> (check: Check, actions: [Action]) {
        let deadline = deadlineMs.map { later(ms: $0) } ?? InventoryTime.noDeadline
        let (check, actions) = table.startCheck(skus: skus, deadline: deadline, now: now)
        return (check, actions)
    }

    /// The service answers the flight now with its number for each SKU (`number(_:)`, plus `plus`).
    mutating func answer(_ flight: Flight, plus: Int = 0) -> [Action] {
        let skus = table.flights[flight]?.skus ?? []
        let levels = InventoryLevels(levels: skus.map { StockLevel(sku: $0, available: Self.number($0) + plus) })
        return table.requestEnded(flight, .answered(.success(levels)), now: now)
    }

    /// The service answers the flight now, but not usably (HTTP `status`).
    mutating func answerStatus(_ flight: Flight, _ status: Int) -> [Action] {
        table.requestEnded(flight, .answered(.failure(Self.httpError(status))), now: now)
    }

    /// The flight's request ends now without an answer (refused).
    mutating func fail(_ flight: Flight) -> [Action] {
        table.requestEnded(flight, .failed(Self.refused), now: now)
    }

    /// The flight's request ends now, cancelled.
    mutating func cancelled(_ flight: Flight) -> [Action] {
        table.requestEnded(flight, .cancelled(Self.cancelledError), now: now)
    }

    mutating func interrupt(_ check: Check) -> [Action] {
        table.interruptCheck(check, now: now)
    }

    mutating func fireTimer() -> [Action] {
        table.timerFired(now: now)
    }

    // MARK: - Reading actions

    static func sends(_ actions: [Action]) -> [Flight] {
        actions.compactMap { if case let .send(flight, _, _) = $0 { return flight } else { return nil } }
    }

    static func completed(_ actions: [Action]) -> [Check] {
        actions.compactMap { if case let .complete(check, _) = $0 { return check } else { return nil } }
    }

    static func result(of check: Check, in actions: [Action]) -> Result<InventoryLevels, ShopError>? {
        for case let .complete(completed, result) in actions where completed == check { return result }
        return nil
    }

    /// The (sku, available) pairs a completion carries, or nil if it is not a success.
    static func levels(of check: Check, in actions: [Action]) -> [StockLevel]? {
        guard case let .success(levels)? = result(of: check, in: actions) else { return nil }
        return levels.levels
    }

    static func flight(_ number: UInt64) -> Flight { Flight(number: number) }
    static func check(_ number: UInt64) -> Check { Check(number: number) }

    // MARK: - The service's side

    /// The test service's number for a SKU: the digits in it (0 without any).
    static func number(_ sku: String) -> Int { Int(sku.filter(\.isNumber)) ?? 0 }

    /// `SKU-0001`…: `count` SKUs from `first`.
    static func skus(_ first: Int, _ count: Int = 1) -> [String] {
        (first..<(first + count)).map { "SKU-" + String(repeating: "0", count: max(0, 4 - String($0).count)) + String($0) }
    }

    static let refused = ShopError.inventoryUnavailable(detail: "connection refused", status: nil)
    static let cancelledError = ShopError.inventoryUnavailable(detail: "the request was cancelled", status: nil)
    static func httpError(_ status: Int) -> ShopError {
        .inventoryUnavailable(detail: "the service answered HTTP \(status)", status: status)
    }
}
