import Dispatch

// MARK: - Stock: adjustments, sets and the ledger

extension ShopService {
    /// The `source` the ledger records for an adjust and for a set.
    static let adjustSource = "admin.stock.adjust"
    static let setSource = "admin.stock.set"

    /// Adds `delta` units to `sku`'s level (takes them when negative) and delivers the new level.
    /// The change appends one ledger row with `reason` and `actor`.
    ///
    /// Fails, changing nothing, with `.notFound(entity: "product")` for an unknown SKU and
    /// `.stockOutOfRange` when the level would fall below 0 or rise above `ShopLimits.maxStock`
    /// (and for a delta of 0 or beyond ±`maxStock`). Calls `completion` exactly once, on `callbackQueue`, after the
    /// change is durable.
    public func adjustStock(
        sku: String,
        delta: Int,
        reason: StockAdjustmentReason,
        actor: String? = nil,
        interruption: (any ShopInterruption)?,
        callbackQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<StockLevel, ShopError>) -> Void
    ) {
        let now = self.now
        store.write(interruption: interruption, callbackQueue: callbackQueue, { transaction in
            guard let available = try transaction.lockStock(sku: sku) else {
                throw ShopError.notFound(entity: "product", id: sku)
            }
            let maxStock = ShopLimits.maxStock
            // The delta's range first, as a range (`abs(Int.min)` traps), then the level it leaves,
            // checked: the level comes from the store and is only bounded by what was written there.
            // A level above the maximum (cancels restock whatever the level) may still come down.
            let (after, overflow) = available.addingReportingOverflow(delta)
            guard delta != 0, (-maxStock...maxStock).contains(delta), !overflow, after >= 0, delta < 0 || after <= maxStock else {
                throw ShopError.stockOutOfRange(sku: sku, available: available, delta: delta, max: maxStock)
            }
            let cause = StockChangeCause.operation(.init(reason), source: Self.adjustSource, actor: actor, at: OrderStamp.timestamp(now()))
            guard let level = try transaction.changeStock(sku: sku, by: delta, onlyIfListed: false, cause: cause) else {
                throw ShopError.storage("the stock row of \(sku) changed under its lock")
            }
            return StockLevel(sku: sku, available: level)
        }, completion: completion)
    }

    /// Puts `sku`'s level at `available` and delivers it. With `expected` it is a compare-and-set:
    /// it fails with `.stockMismatch`, changing nothing, unless the level is `expected` when the
    /// set runs (use it when another system is the source of truth and may have moved the level
    /// since you read it). A change appends one `set` ledger row with `actor`; setting the level
    /// it already has changes nothing and appends none.
    ///
    /// Fails with `.notFound(entity: "product")` for an unknown SKU and `.stockOutOfRange` for an
    /// `available` outside `0...ShopLimits.maxStock`. Calls `completion` exactly once, on
    /// `callbackQueue`, after the change is durable.
    public func setStock(
        sku: String,
        available: Int,
        expected: Int?,
        actor: String? = nil,
        interruption: (any ShopInterruption)?,
        callbackQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<StockLevel, ShopError>) -> Void
    ) {
        let now = self.now
        store.write(interruption: interruption, callbackQueue: callbackQueue, { transaction in
            guard let current = try transaction.lockStock(sku: sku) else {
                throw ShopError.notFound(entity: "product", id: sku)
            }
            if let expected, expected != current {
                throw ShopError.stockMismatch(sku: sku, expected: expected, available: current)
            }
            guard (0...ShopLimits.maxStock).contains(available) else {
                // `available` is the caller's, any Int: the delta it asks is reported saturated
                // rather than computed into a trap (Int.min - a positive level overflows).
                let (delta, overflow) = available.subtractingReportingOverflow(current)
                let reported = overflow ? (available < 0 ? Int.min : Int.max) : delta
                throw ShopError.stockOutOfRange(sku: sku, available: current, delta: reported, max: ShopLimits.maxStock)
            }
            if available != current {
                let cause = StockChangeCause.operation(.set, source: Self.setSource, actor: actor, at: OrderStamp.timestamp(now()))
                guard try transaction.changeStock(sku: sku, by: available - current, onlyIfListed: false, cause: cause) == available else {
                    throw ShopError.storage("the stock row of \(sku) changed under its lock")
                }
            }
            return StockLevel(sku: sku, available: available)
        }, completion: completion)
    }

    /// Up to `limit` ledger rows (clamped to `1...ShopLimits.maxLedgerPage`) after `afterSequence`
    /// (0: from the first), made at or after `since` when given (ISO 8601 UTC with milliseconds,
    /// as the rows hold it), in ledger order, from one snapshot. Page on by passing the last
    /// row's `sequence`.
    public func stockMovements(afterSequence: Int64, since: String?, limit: Int, interruption: (any ShopInterruption)?) throws -> [StockMovement] {
        let pageSize = min(max(limit, 1), ShopLimits.maxLedgerPage)
        return try store.readOneStatement(interruption: interruption) { transaction in
            try transaction.stockMovements(afterSequence: afterSequence, since: since, limit: pageSize)
        }
    }
}
