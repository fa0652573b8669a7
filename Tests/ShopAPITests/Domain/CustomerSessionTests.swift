import XCTest
@testable import ShopAPI

/// Customers on one store (`--customer`), on every store: the same cart id for two customers is
/// two carts; an order records its customer; another customer's order (or one placed without a
/// customer) is exactly as unknown as an order that does not exist, to get, cancel and list;
/// idempotency keys are each customer's own; the ledger names the customer as actor.
final class CustomerSessionTests: StoreContractTestCase {
    private func add(_ cartId: String, _ sku: String, _ quantity: Int, customer: String?) -> Result<Cart, ShopError> {
        waitForResult { service.addToCart(cartId: cartId, sku: sku, quantity: quantity, customer: customer, interruption: nil, completion: $0) }
    }

    private func place(_ cartId: String, key: String, customer: String?, actor: String? = nil) -> Result<Order, ShopError> {
        waitForResult { service.placeOrder(cartId: cartId, idempotencyKey: key, customer: customer, actor: actor, interruption: nil, completion: $0) }
    }

    private func cancel(_ orderId: String, customer: String?) -> Result<Order, ShopError> {
        waitForResult { service.cancelOrder(id: orderId, reason: nil, customer: customer, interruption: nil, completion: $0) }
    }

    func test_sameCartId_forTwoCustomers_isTwoCarts_andNeitherIsTheCartOfNoCustomer() throws {
        try forEachStore {
            _ = try add("c-1", "SKU-0002", 2, customer: "alice").get()
            _ = try add("c-1", "SKU-0008", 1, customer: "bob").get()
            _ = try add("c-1", "SKU-0010", 3, customer: nil).get()
            let alice = try service.cart(id: "c-1", customer: "alice", interruption: nil)
            XCTAssertEqual(alice.cartId, "c-1")
            XCTAssertEqual(alice.lines.map(\.sku), ["SKU-0002"])
            XCTAssertEqual(try service.cart(id: "c-1", customer: "bob", interruption: nil).lines.map(\.sku), ["SKU-0008"])
            XCTAssertEqual(try service.cart(id: "c-1", interruption: nil).lines.map(\.sku), ["SKU-0010"])
            _ = waitForResult { service.clearCart(cartId: "c-1", customer: "bob", interruption: nil, completion: $0) }
            XCTAssertEqual(try service.cart(id: "c-1", customer: "alice", interruption: nil).lines.count, 1, "bob's clear left alice's cart")
        }
    }

    func test_anIdHoldingTheSeparator_withoutACustomer_isNeverACustomersCartOrKey() throws {
        try forEachStore {
            _ = try add("c-1", "SKU-0002", 2, customer: "alice").get()
            let aliceOrder = try place("c-1", key: "k", customer: "alice").get()
            _ = try add("c-1", "SKU-0002", 1, customer: "alice").get()
            XCTAssertEqual(try service.cart(id: "alice\u{1F}c-1", interruption: nil).lines, [])
            _ = try add("alice\u{1F}c-1", "SKU-0008", 1, customer: nil).get()
            XCTAssertEqual(try service.cart(id: "c-1", customer: "alice", interruption: nil).lines.map(\.sku), ["SKU-0002"])
            let order = try place("alice\u{1F}c-1", key: "alice\u{1F}k", customer: nil).get()
            XCTAssertNotEqual(order.orderId, aliceOrder.orderId)
            XCTAssertNil(order.customer)
            XCTAssertEqual(order.cartId, "alice\u{1F}c-1")
            XCTAssertThrowsError(try service.order(id: order.orderId, customer: "alice", interruption: nil))
            XCTAssertEqual(try service.listOrders(cartId: nil, customer: "alice", cursor: nil, limit: 10, interruption: nil).items.map(\.orderId),
                           [aliceOrder.orderId])
        }
    }

    func test_anotherCustomersOrder_isNotFound_toGetCancelAndList_exactlyAsAnUnknownOne() throws {
        try forEachStore {
            _ = try add("c-1", "SKU-0002", 2, customer: "alice").get()
            _ = try add("c-1", "SKU-0008", 1, customer: "bob").get()
            _ = try add("c-1", "SKU-0010", 1, customer: nil).get()
            let aliceOrder = try place("c-1", key: "k-1", customer: "alice").get()
            let bobOrder = try place("c-1", key: "k-1", customer: "bob").get()
            let shopOrder = try place("c-1", key: "k-1", customer: nil).get()
            XCTAssertEqual(aliceOrder.customer, "alice")
            XCTAssertEqual(aliceOrder.cartId, "c-1")
            XCTAssertNil(shopOrder.customer)
            XCTAssertNotEqual(aliceOrder.orderId, bobOrder.orderId, "bob's key k-1 is not alice's")

            for id in [aliceOrder.orderId, shopOrder.orderId, "ord_0000000000000000"] {
                XCTAssertThrowsError(try service.order(id: id, customer: "bob", interruption: nil)) {
                    XCTAssertEqual($0 as? ShopError, .notFound(entity: "order", id: id))
                }
                XCTAssertEqual(cancel(id, customer: "bob"), .failure(.notFound(entity: "order", id: id)))
            }
            XCTAssertEqual(try service.order(id: aliceOrder.orderId, customer: "alice", interruption: nil).status, Order.placedStatus,
                           "bob's cancel changed nothing")
            XCTAssertEqual(try service.listOrders(cartId: nil, customer: "bob", cursor: nil, limit: 10, interruption: nil).items.map(\.orderId),
                           [bobOrder.orderId])
            XCTAssertEqual(try service.listOrders(cartId: "c-1", customer: "alice", cursor: nil, limit: 10, interruption: nil).items.map(\.orderId),
                           [aliceOrder.orderId])
            XCTAssertEqual(try service.listOrders(cartId: nil, cursor: nil, limit: 10, interruption: nil).items.map(\.orderId),
                           [shopOrder.orderId, bobOrder.orderId, aliceOrder.orderId], "the whole shop sees every order")
            XCTAssertEqual(try service.listOrders(cartId: "c-1", cursor: nil, limit: 10, interruption: nil).items.map(\.orderId),
                           [shopOrder.orderId], "cart c-1 of no customer is its own cart")
            XCTAssertEqual(try service.order(id: bobOrder.orderId, interruption: nil).customer, "bob")

            let cancelled = try cancel(aliceOrder.orderId, customer: "alice").get()
            XCTAssertEqual(cancelled.status, Order.cancelledStatus)
            XCTAssertEqual(cancelled.customer, "alice")
        }
    }

    func test_idempotencyKeys_areEachCustomersOwn_andARetryAnswersTheSameOrder() throws {
        try forEachStore {
            _ = try add("c-1", "SKU-0002", 1, customer: "alice").get()
            let first = try place("c-1", key: "k", customer: "alice").get()
            XCTAssertEqual(try place("c-1", key: "k", customer: "alice").get(), first)
            XCTAssertEqual(place("c-1", key: "k", customer: "bob"), .failure(.cartEmpty(cartId: "c-1")),
                           "alice's key in bob's session is a new key: bob's empty cart, never alice's order")
            XCTAssertEqual(place("c-2", key: "k", customer: "alice"), .failure(.idempotencyConflict(key: "k", cartId: "c-2")),
                           "the client hears its own key and cart")
        }
    }

    func test_ledgerRows_ofACustomersSession_nameTheCustomer_notTheClientsActor() throws {
        try forEachStore {
            _ = try add("c-1", "SKU-0002", 1, customer: "alice").get()
            let order = try place("c-1", key: "k", customer: "alice", actor: "mallory").get()
            _ = waitForResult { service.cancelOrder(id: order.orderId, reason: nil, customer: "alice", actor: "mallory", interruption: nil, completion: $0) }
            var actors: [String?] = []
            try service.exportStockLedger(since: nil) { if $0.orderId == order.orderId { actors.append($0.actor) } }
            XCTAssertEqual(actors, ["customer:alice", "customer:alice"])
        }
    }

    func test_customerIdentifiers_areNonEmpty_atMost256Bytes_withoutControlCharacters() {
        XCTAssertTrue(CustomerKey.isValidCustomer("alice"))
        XCTAssertTrue(CustomerKey.isValidCustomer(String(repeating: "é", count: 128)))
        XCTAssertFalse(CustomerKey.isValidCustomer(""))
        XCTAssertFalse(CustomerKey.isValidCustomer(String(repeating: "é", count: 129)))
        XCTAssertFalse(CustomerKey.isValidCustomer("a\u{1F}b"))
        XCTAssertFalse(CustomerKey.isValidCustomer("a\nb"))
        XCTAssertFalse(CustomerKey.isValidCustomer("a\u{7F}b"))
    }
}
