import XCTest
@testable import ShopAPI

/// The service's rules against a fake store (no SQLite), with a fixed clock and order ids.
final class ShopServiceRulesTests: XCTestCase {
    private static let mug = Product(sku: "MUG", name: "Mug", description: "A mug", category: "kitchen", priceCents: 1250, currency: "USD")
    private static let pen = Product(sku: "PEN", name: "Pen", description: "A pen", category: "office", priceCents: 199, currency: "USD")

    private var store: InMemoryShopStore!
    private var service: ShopService!

    override func setUp() {
        store = InMemoryShopStore(products: [(Self.mug, stock: 5), (Self.pen, stock: 1)])
        service = ShopService(
            store: store,
            now: { Date(timeIntervalSince1970: 1_795_428_000.125) },
            makeOrderId: { "ord_00000000000000aa" }
        )
    }

    func test_placeOrder_stampsOrderWithClockAndIdGenerator() throws {
        _ = try service.addToCartAndWait("c", "MUG", 2).get()
        let order = try service.placeOrderAndWait("c", key: "k").get()
        XCTAssertEqual(order, Order(
            orderId: "ord_00000000000000aa", cartId: "c",
            lines: [CartLine(sku: "MUG", quantity: 2, unitPriceCents: 1250)],
            totalCents: 2500, currency: "USD", status: "placed", createdAt: "2026-11-23T10:00:00.125Z"
        ))
    }

    func test_placeOrder_retryAfterCartWasEmptiedByTheOrder_returnsOrderNotCartEmpty() throws {
        _ = try service.addToCartAndWait("c", "MUG", 1).get()
        let order = try service.placeOrderAndWait("c", key: "k").get()
        XCTAssertEqual(try service.placeOrderAndWait("c", key: "k").get(), order)
    }

    func test_placeOrder_conflictIsCheckedBeforeEmptyCart() throws {
        _ = try service.addToCartAndWait("c", "MUG", 1).get()
        _ = try service.placeOrderAndWait("c", key: "k").get()
        XCTAssertEqual(service.placeOrderAndWait("empty", key: "k").failure, .idempotencyConflict(key: "k", cartId: "empty"))
    }

    func test_placeOrder_secondLineShort_reportsThatLine_andTakesNoStock() throws {
        _ = try service.addToCartAndWait("c", "MUG", 1).get()
        _ = try service.addToCartAndWait("c", "PEN", 2).get()
        XCTAssertEqual(service.placeOrderAndWait("c", key: "k").failure, .outOfStock(sku: "PEN", requested: 2, available: 1))
        XCTAssertEqual(try service.available("MUG"), 5)
    }

    func test_addToCart_usesCurrentPrice_andCartTotalIsSumOfLines() throws {
        _ = try service.addToCartAndWait("c", "MUG", 3).get()
        let cart = try service.addToCartAndWait("c", "PEN", 4).get()
        XCTAssertEqual(cart.totalCents, 3 * 1250 + 4 * 199)
    }

    func test_storeFailure_surfacesAsStorageError_orStoreBusyForALockHeldTooLong() {
        struct Boom: Error {}
        XCTAssertEqual(ShopError(storeError: Boom()), .storage("Boom()"))
        XCTAssertEqual(ShopError(storeError: SQLiteError(code: 9, message: "interrupted")), .interrupted)
        XCTAssertEqual(ShopError(storeError: SQLiteError(code: 11, message: "malformed")), .storage("malformed (SQLite code 11)"))
        guard case .storeBusy = ShopError(storeError: SQLiteError(code: 5, message: "database is locked")) else {
            return XCTFail("SQLITE_BUSY is StoreBusy")
        }
        guard case .storeBusy = ShopError(storeError: SQLiteError(code: 5 | (2 << 8), message: "database is locked")) else {
            return XCTFail("SQLITE_BUSY_SNAPSHOT is StoreBusy")
        }
        XCTAssertEqual(ShopError(storeError: ShopError.cartEmpty(cartId: "x")), .cartEmpty(cartId: "x"))
    }
}
