import Dispatch

/// Where `inventory.check` gets live stock when it does not read the local store: an inventory
/// service (`HTTPInventorySource`), or a test double. Without one the shop reads its own store.
///
/// Conformers are thread-safe. `checkInventory` never blocks its caller: it calls `completion`
/// **exactly once**, on a thread of its choosing, with one level per requested SKU in request
/// order (duplicates answered each time), or with a `ShopError` (`.inventoryUnavailable` when the
/// source gave no usable answer, `.interrupted` when `interruption` fired first). When
/// `interruption` fires, the work stops: a queued check never starts, a running one is abandoned.
/// `deadline` is when `interruption` will fire at the latest (the call's deadline); a source may
/// use it to avoid starting work that cannot finish in time.
public protocol InventorySource: Sendable {
    func checkInventory(
        skus: [String],
        deadline: DispatchTime,
        interruption: any ShopInterruption,
        completion: @escaping @Sendable (Result<InventoryLevels, ShopError>) -> Void
    )
}
