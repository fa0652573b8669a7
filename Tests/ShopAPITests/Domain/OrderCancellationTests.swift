import XCTest
@testable import ShopAPI

/// `orders.cancel`: restocking, idempotency, and the order it leaves.
final class OrderCancellationTests: StoreContractTestCase {

    /// Places an order of 2 × SKU-0004 and 3 × SKU-0001 from cart `cartId`.
    private func placeTwoLineOrder(_ cartId: String = "c1", key: String = "k1") throws -> Order {
        _ = try service.addToCartAndWait(cartId, "SKU-0004", 2).get()
        _ = try service.addToCartAndWait(cartId, "SKU-0001", 3).get()
        return try service.placeOrderAndWait(cartId, key: key).get()
    }

    func test_cancelOrder_restocksEveryLine_andDeliversTheOrderCancelled() throws {
        try forEachStore {
            let before = (try service.available("SKU-0004"), try service.available("SKU-0001"))
            let placed = try placeTwoLineOrder()
            let cancelled = try service.cancelOrderAndWait(placed.orderId, reason: "customer changed their mind").get()
            XCTAssertEqual(cancelled.status, "cancelled")
            XCTAssertEqual(cancelled.cancelReason, "customer changed their mind")
            let cancelledAt = try XCTUnwrap(cancelled.cancelledAt)
            XCTAssertNotNil(cancelledAt.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/), cancelledAt)
            XCTAssertGreaterThanOrEqual(cancelledAt, placed.createdAt)
            XCTAssertEqual(cancelled, placed.cancelled(at: cancelledAt, reason: "customer changed their mind"),
                           "same order id, cart, lines, total and createdAt")
            XCTAssertEqual(try service.available("SKU-0004"), before.0)
            XCTAssertEqual(try service.available("SKU-0001"), before.1)
            XCTAssertEqual(try service.order(id: placed.orderId, interruption: nil), cancelled)
            XCTAssertEqual(try service.listOrders(cartId: "c1", cursor: nil, limit: 10, interruption: nil).items, [cancelled])
        }
    }

    func test_cancelOrder_withoutReason_hasNoCancelReason() throws {
        try forEachStore {
            let placed = try placeTwoLineOrder()
            let cancelled = try service.cancelOrderAndWait(placed.orderId).get()
            XCTAssertTrue(cancelled.isCancelled)
            XCTAssertNil(cancelled.cancelReason)
            XCTAssertEqual(try service.order(id: placed.orderId, interruption: nil), cancelled)
        }
    }

    func test_cancelOrder_again_returnsTheSameOrder_andRestocksNothing() throws {
        try forEachStore {
            let placed = try placeTwoLineOrder()
            let first = try service.cancelOrderAndWait(placed.orderId, reason: "first").get()
            let levels = (try service.available("SKU-0004"), try service.available("SKU-0001"))
            let rows = try service.ledger().count
            let second = try service.cancelOrderAndWait(placed.orderId, reason: "second").get()
            XCTAssertEqual(second, first, "the first cancel's time and reason stay")
            XCTAssertEqual(try service.available("SKU-0004"), levels.0)
            XCTAssertEqual(try service.available("SKU-0001"), levels.1)
            XCTAssertEqual(try service.ledger().count, rows, "no ledger row for a cancel that changed nothing")
        }
    }

    func test_cancelOrder_unknownOrder_failsNotFound_andChangesNothing() throws {
        try forEachStore {
            XCTAssertEqual(service.cancelOrderAndWait("ord_0000000000000000").failure, .notFound(entity: "order", id: "ord_0000000000000000"))
            XCTAssertEqual(try service.ledger(), [])
        }
    }

    /// The key placed that order: a retry after the cancel returns it cancelled and takes no stock.
    func test_placeOrder_retryWithTheKeyOfACancelledOrder_returnsItCancelled_andTakesNothing() throws {
        try forEachStore {
            let placed = try placeTwoLineOrder()
            let cancelled = try service.cancelOrderAndWait(placed.orderId).get()
            _ = try service.addToCartAndWait("c1", "SKU-0004", 1).get()
            let level = try service.available("SKU-0004")
            XCTAssertEqual(try service.placeOrderAndWait("c1", key: "k1").get(), cancelled)
            XCTAssertEqual(try service.available("SKU-0004"), level)
            XCTAssertEqual(try service.cart(id: "c1", interruption: nil).lines.count, 1, "the new cart is left alone")
        }
    }

    /// Units a cancel gives back can be ordered again; a cancel never takes anything.
    func test_cancelOrder_ofTheLastUnits_letsTheNextOrderHaveThem() throws {
        try forEachStore {
            try service.drainStock(of: "SKU-0006", leaving: 2)
            _ = try service.addToCartAndWait("a", "SKU-0006", 2).get()
            let first = try service.placeOrderAndWait("a", key: "a").get()
            _ = try service.addToCartAndWait("b", "SKU-0006", 2).get()
            XCTAssertEqual(service.placeOrderAndWait("b", key: "b").failure, .outOfStock(sku: "SKU-0006", requested: 2, available: 0))
            _ = try service.cancelOrderAndWait(first.orderId).get()
            XCTAssertEqual(try service.placeOrderAndWait("b", key: "b").get().lines.map(\.quantity), [2])
            XCTAssertEqual(try service.available("SKU-0006"), 0)
        }
    }

    func test_cancelOrder_interruptedBeforeItStarts_changesNothing() throws {
        try forEachStore {
            let placed = try placeTwoLineOrder()
            let level = try service.available("SKU-0004")
            let interruption = TestInterruption(interrupted: true)
            XCTAssertEqual(service.cancelOrderAndWait(placed.orderId, interruption: interruption).failure, .interrupted)
            XCTAssertEqual(try service.order(id: placed.orderId, interruption: nil).status, "placed")
            XCTAssertEqual(try service.available("SKU-0004"), level)
        }
    }

    /// Cancels of one order submitted at once (grouped into one SQLite transaction; separate
    /// PostgreSQL transactions that wait for the order's row lock): one restocks, all deliver it.
    func test_cancelOrder_manyAtOnce_restockOnce_andAllDeliverTheSameOrder() throws {
        try forEachStore {
            let placed = try placeTwoLineOrder()
            let level = try service.available("SKU-0004")
            let boxes = (0..<8).map { _ in ResultBox<Order>() }
            let service: ShopService = self.service
            DispatchQueue.concurrentPerform(iterations: boxes.count) { index in
                service.cancelOrder(id: placed.orderId, reason: "r\(index)", interruption: nil) { boxes[index].record($0) }
            }
            let orders = try boxes.map { box -> Order in
                XCTAssertTrue(box.wait())
                return try XCTUnwrap(box.result).get()
            }
            XCTAssertEqual(Set(orders.map(\.cancelledAt)).count, 1, "one cancel took effect")
            XCTAssertEqual(Set(orders.map(\.cancelReason)).count, 1)
            XCTAssertEqual(try service.available("SKU-0004"), level + 2)
            XCTAssertEqual(try service.ledger().filter { $0.reason == .cancellation }.count, 2, "one row per line, once")
        }
    }
}
