/// Names one check or one flight for as long as its `InventoryFlightTable` lives: numbers are never
/// reused, and one made later has a larger number. `Subject` (`InventoryPendingCheck` or
/// `InventoryFlight`) only keeps the two kinds apart.
struct InventoryTableID<Subject>: Hashable, Comparable, Sendable, CustomStringConvertible {
    let number: UInt64

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.number < rhs.number }

    var description: String { "\(Subject.self) \(number)" }
}
