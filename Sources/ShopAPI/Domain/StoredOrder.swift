/// An order with its position in placement order (larger is newer), the basis of order cursors.
struct StoredOrder: Sendable, Equatable {
    let sequence: Int64
    let order: Order
}
