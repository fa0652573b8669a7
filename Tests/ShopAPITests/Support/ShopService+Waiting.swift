import Dispatch
import XCTest
@testable import ShopAPI

// MARK: - Waiting for writes

/// Calls `start` with a completion and waits (at most 10 s) for it. Fails the test if the
/// completion is called more than once (checked until this returns) or never.
func waitForResult<T: Sendable>(
    file: StaticString = #filePath, line: UInt = #line,
    _ start: (@escaping @Sendable (Result<T, ShopError>) -> Void) -> Void
) -> Result<T, ShopError> {
    let box = ResultBox<T>()
    start { box.record($0) }
    guard box.wait() else {
        XCTFail("completion was not called within 10 s", file: file, line: line)
        return .failure(.storage("timed out"))
    }
    XCTAssertEqual(box.callCount, 1, "completion must be called exactly once", file: file, line: line)
    return box.result!
}

// MARK: - Synchronous writes

extension ShopService {
    @discardableResult
    func addToCartAndWait(_ cartId: String, _ sku: String, _ quantity: Int, interruption: (any ShopInterruption)? = nil) -> Result<Cart, ShopError> {
        waitForResult { addToCart(cartId: cartId, sku: sku, quantity: quantity, interruption: interruption, completion: $0) }
    }

    @discardableResult
    func removeFromCartAndWait(_ cartId: String, _ sku: String) -> Result<Cart, ShopError> {
        waitForResult { removeFromCart(cartId: cartId, sku: sku, interruption: nil, completion: $0) }
    }

    @discardableResult
    func clearCartAndWait(_ cartId: String) -> Result<Cart, ShopError> {
        waitForResult { clearCart(cartId: cartId, interruption: nil, completion: $0) }
    }

    @discardableResult
    func placeOrderAndWait(_ cartId: String, key: String, actor: String? = nil, interruption: (any ShopInterruption)? = nil) -> Result<Order, ShopError> {
        waitForResult { placeOrder(cartId: cartId, idempotencyKey: key, actor: actor, interruption: interruption, completion: $0) }
    }

    @discardableResult
    func cancelOrderAndWait(_ orderId: String, reason: String? = nil, actor: String? = nil,
                            interruption: (any ShopInterruption)? = nil) -> Result<Order, ShopError> {
        waitForResult { cancelOrder(id: orderId, reason: reason, actor: actor, interruption: interruption, completion: $0) }
    }

    @discardableResult
    func adjustStockAndWait(_ sku: String, by delta: Int, _ reason: StockAdjustmentReason = .received, actor: String? = nil) -> Result<StockLevel, ShopError> {
        waitForResult { adjustStock(sku: sku, delta: delta, reason: reason, actor: actor, interruption: nil, completion: $0) }
    }

    @discardableResult
    func setStockAndWait(_ sku: String, to available: Int, expected: Int? = nil, actor: String? = nil) -> Result<StockLevel, ShopError> {
        waitForResult { setStock(sku: sku, available: available, expected: expected, actor: actor, interruption: nil, completion: $0) }
    }

    @discardableResult
    func archiveProductsAndWait(_ skus: [String]) -> Result<ProductsArchived, ShopError> {
        waitForResult { archiveProducts(skus: skus, interruption: nil, completion: $0) }
    }

    /// The whole stock ledger, in ledger order, read a page at a time.
    func ledger(since: String? = nil, pageSize: Int = 500) throws -> [StockMovement] {
        var rows: [StockMovement] = []
        while true {
            let page = try stockMovements(afterSequence: rows.last?.sequence ?? 0, since: since, limit: pageSize, interruption: nil)
            rows += page
            if page.count < pageSize { return rows }
        }
    }

    func available(_ sku: String) throws -> Int {
        try checkInventory(skus: [sku], interruption: nil).levels[0].available
    }

    /// Orders enough of `sku` (from a throwaway cart) that exactly `remaining` units stay in stock.
    func drainStock(of sku: String, leaving remaining: Int) throws {
        let surplus = try available(sku) - remaining
        precondition(surplus >= 0 && surplus <= ShopLimits.maxLineQuantity)
        guard surplus > 0 else { return }
        _ = try addToCartAndWait("drain-\(sku)", sku, surplus).get()
        _ = try placeOrderAndWait("drain-\(sku)", key: "drain-\(sku)-\(UUID().uuidString)").get()
    }
}

// MARK: - Result helpers

extension Result {
    /// The failure, or `nil` on success.
    var failure: Failure? {
        if case let .failure(error) = self { return error }
        return nil
    }
}
