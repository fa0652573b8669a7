/// One `inventory.check` while it waits for levels, as the flight table keeps it: which of its SKUs
/// have a level (`found`, fresh or marked stale), which still lack one (`missing`), and the flights
/// it waits on. A value: `InventoryFlightTable` owns it from the check's start until it is
/// answered, when it leaves the table (`finish`, the one place) and its `.complete` action is
/// returned, exactly once.
struct InventoryPendingCheck: Sendable, Equatable {
    typealias ID = InventoryTableID<InventoryPendingCheck>

    enum State: Equatable, Sendable {
        /// Every SKU still lacking a level is asked by a flight the check waits on.
        case waiting
        /// Some SKU will get no fresh level: its flight reached the front of the queue too late to
        /// be sent, and the fixed limit sheds nothing. The check ends at its deadline or cancel
        /// (or sooner, from a failure of another flight, or stale levels shortly before the deadline).
        case waitingForDeadline
    }

    let id: ID
    /// As asked: request order, duplicates kept.
    let skus: [String]
    /// When its call's deadline passes (`InventoryTime.noDeadline`: never).
    let deadline: UInt64
    /// After this a flight it alone waits on is not worth sending.
    let latestStart: UInt64
    var state = State.waiting
    var found: [String: StockLevel] = [:]
    var missing: Set<String>
    var flights: Set<InventoryFlight.ID> = []

    init(id: ID, skus: [String], distinct: [String], deadline: UInt64, latestStart: UInt64) {
        self.id = id
        self.skus = skus
        missing = Set(distinct)
        self.deadline = deadline
        self.latestStart = latestStart
    }

    /// The answer once every SKU has a level: one per asked SKU, in request order.
    var levels: InventoryLevels {
        InventoryLevels(levels: skus.compactMap { found[$0] })
    }

    /// Gives each of `levels` whose SKU the check still lacks to it; returns whether it lacks none now.
    mutating func take(_ levels: [StockLevel]) -> Bool {
        for level in levels where missing.remove(level.sku) != nil {
            found[level.sku] = level
        }
        return missing.isEmpty
    }
}
