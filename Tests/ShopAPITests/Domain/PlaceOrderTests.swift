import XCTest
@testable import ShopAPI

/// `orders.place`, `orders.get`, `orders.list`.
final class PlaceOrderTests: StoreContractTestCase {

    func test_placeOrder_takesStock_storesOrder_andEmptiesCart() throws {
        try forEachStore {
            let before = try service.available("SKU-0004")
            let cart = try service.addToCartAndWait("c1", "SKU-0004", 2).get()
            let order = try service.placeOrderAndWait("c1", key: "k1").get()
            XCTAssertEqual(order.cartId, "c1")
            XCTAssertEqual(order.lines, cart.lines)
            XCTAssertEqual(order.totalCents, cart.totalCents)
            XCTAssertEqual(order.currency, "USD")
            XCTAssertEqual(order.status, "placed")
            XCTAssertNotNil(order.orderId.wholeMatch(of: /ord_[0-9a-f]{16}/))
            XCTAssertNotNil(order.createdAt.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/), order.createdAt)
            XCTAssertEqual(try service.available("SKU-0004"), before - 2)
            XCTAssertEqual(try service.cart(id: "c1", interruption: nil).lines, [])
            XCTAssertEqual(try service.order(id: order.orderId, interruption: nil), order)
        }
    }

    func test_placeOrder_sameIdempotencyKey_returnsSameOrderWithoutSecondDecrement() throws {
        try forEachStore {
            _ = try service.addToCartAndWait("c1", "SKU-0004", 2).get()
            let first = try service.placeOrderAndWait("c1", key: "k1").get()
            let afterFirst = try service.available("SKU-0004")
            _ = try service.addToCartAndWait("c1", "SKU-0004", 5).get()
            let retry = try service.placeOrderAndWait("c1", key: "k1").get()
            XCTAssertEqual(retry, first)
            XCTAssertEqual(try service.available("SKU-0004"), afterFirst)
            XCTAssertEqual(try service.cart(id: "c1", interruption: nil).lines.first?.quantity, 5, "a retry leaves the new cart alone")
        }
    }

    func test_placeOrder_sameKeyForAnotherCart_failsIdempotencyConflict() throws {
        try forEachStore {
            _ = try service.addToCartAndWait("c1", "SKU-0004", 1).get()
            _ = try service.addToCartAndWait("c2", "SKU-0004", 1).get()
            _ = try service.placeOrderAndWait("c1", key: "k1").get()
            XCTAssertEqual(service.placeOrderAndWait("c2", key: "k1").failure, .idempotencyConflict(key: "k1", cartId: "c2"))
            XCTAssertEqual(try service.cart(id: "c2", interruption: nil).lines.count, 1)
        }
    }

    func test_placeOrder_emptyCart_failsCartEmpty() throws {
        try forEachStore {
            XCTAssertEqual(service.placeOrderAndWait("nobody", key: "k1").failure, .cartEmpty(cartId: "nobody"))
        }
    }

    func test_placeOrder_notEnoughStock_failsOutOfStockWithLevels_andChangesNothing() throws {
        try forEachStore {
            try service.drainStock(of: "SKU-0006", leaving: 2)
            let firstLineStock = try service.available("SKU-0001")
            _ = try service.addToCartAndWait("c1", "SKU-0001", 1).get()
            _ = try service.addToCartAndWait("c1", "SKU-0006", 5).get()
            XCTAssertEqual(service.placeOrderAndWait("c1", key: "k1").failure, .outOfStock(sku: "SKU-0006", requested: 5, available: 2))
            XCTAssertEqual(try service.available("SKU-0001"), firstLineStock, "the first line's decrement was rolled back")
            XCTAssertEqual(try service.available("SKU-0006"), 2)
            XCTAssertEqual(try service.cart(id: "c1", interruption: nil).lines.count, 2, "cart kept")
            XCTAssertEqual(try service.listOrders(cartId: "c1", cursor: nil, limit: 10, interruption: nil).items, [])
        }
    }

    /// Stock is taken in SKU order (PostgreSQL's lock order), but the line reported is the first
    /// short one in the cart's order, on every store.
    func test_placeOrder_twoShortLines_reportsTheFirstInCartOrder() throws {
        try forEachStore {
            try service.drainStock(of: "SKU-0006", leaving: 1)
            try service.drainStock(of: "SKU-0009", leaving: 2)
            _ = try service.addToCartAndWait("c1", "SKU-0009", 3).get()  // short, first in the cart
            _ = try service.addToCartAndWait("c1", "SKU-0001", 1).get()
            _ = try service.addToCartAndWait("c1", "SKU-0006", 4).get()  // short, lower SKU
            XCTAssertEqual(service.placeOrderAndWait("c1", key: "k1").failure, .outOfStock(sku: "SKU-0009", requested: 3, available: 2))
            XCTAssertEqual(try service.available("SKU-0006"), 1)
            XCTAssertEqual(try service.available("SKU-0009"), 2)
        }
    }

    func test_placeOrder_soldOutProduct_failsOutOfStockWithZeroAvailable() throws {
        try forEachStore {
            _ = try service.addToCartAndWait("c1", "SKU-0131", 1).get()
            XCTAssertEqual(service.placeOrderAndWait("c1", key: "k").failure, .outOfStock(sku: "SKU-0131", requested: 1, available: 0))
        }
    }

    func test_placeOrder_failedAttempt_doesNotConsumeKey() throws {
        try forEachStore {
            _ = try service.addToCartAndWait("c1", "SKU-0013", 1).get()
            XCTAssertNotNil(service.placeOrderAndWait("c1", key: "k1").failure)
            _ = try service.removeFromCartAndWait("c1", "SKU-0013").get()
            _ = try service.addToCartAndWait("c1", "SKU-0001", 1).get()
            XCTAssertEqual(try service.placeOrderAndWait("c1", key: "k1").get().lines.map(\.sku), ["SKU-0001"])
        }
    }

    func test_order_unknownId_throwsNotFoundOrder() throws {
        try forEachStore {
            XCTAssertThrowsError(try service.order(id: "ord_0000000000000000", interruption: nil)) {
                XCTAssertEqual($0 as? ShopError, .notFound(entity: "order", id: "ord_0000000000000000"))
            }
        }
    }

    func test_listOrders_newestFirst_cursorsStable_whileNewOrdersArrive_andCartFilter() throws {
        try forEachStore {
            var placed: [Order] = []
            for index in 0..<7 {
                let cartId = index.isMultiple(of: 2) ? "even" : "odd"
                _ = try service.addToCartAndWait(cartId, "SKU-0001", 1).get()
                placed.append(try service.placeOrderAndWait(cartId, key: "k\(index)").get())
            }
            let first = try service.listOrders(cartId: nil, cursor: nil, limit: 3, interruption: nil)
            XCTAssertEqual(first.items, Array(placed.reversed().prefix(3)))
            _ = try service.addToCartAndWait("odd", "SKU-0001", 1).get()
            _ = try service.placeOrderAndWait("odd", key: "late").get()
            let second = try service.listOrders(cartId: nil, cursor: first.nextCursor, limit: 3, interruption: nil)
            XCTAssertEqual(second.items, Array(placed.reversed().dropFirst(3).prefix(3)))
            let third = try service.listOrders(cartId: nil, cursor: second.nextCursor, limit: 3, interruption: nil)
            XCTAssertEqual(third.items, [placed[0]])
            XCTAssertNil(third.nextCursor)

            let even = try service.listOrders(cartId: "even", cursor: nil, limit: 50, interruption: nil)
            XCTAssertEqual(even.items, placed.enumerated().filter { $0.offset.isMultiple(of: 2) }.map(\.element).reversed())
            XCTAssertNil(even.nextCursor)
        }
    }

    func test_listOrders_catalogCursor_throwsInvalidCursor() throws {
        try forEachStore {
            let cursor = PageCursor.catalog(afterSeq: 1)
            XCTAssertThrowsError(try service.listOrders(cartId: nil, cursor: cursor, limit: 3, interruption: nil)) {
                XCTAssertEqual($0 as? ShopError, .invalidCursor(cursor))
            }
        }
    }
}
