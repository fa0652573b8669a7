import XCTest
@testable import ShopAPI

/// `cart.get`, `cart.add`, `cart.remove`, `cart.clear`.
final class CartTests: StoreContractTestCase {

    func test_cart_unknownId_isEmptyUSDCart_notAnError() throws {
        try forEachStore {
            XCTAssertEqual(try service.cart(id: "never-used", interruption: nil), Cart(cartId: "never-used", lines: [], totalCents: 0, currency: "USD"))
        }
    }

    func test_addToCart_addsLinesInOrder_atProductPrice_withTotal() throws {
        try forEachStore {
            let first = try service.product(sku: "SKU-0005", interruption: nil)
            let second = try service.product(sku: "SKU-0002", interruption: nil)
            _ = try service.addToCartAndWait("c1", "SKU-0005", 2).get()
            let cart = try service.addToCartAndWait("c1", "SKU-0002", 3).get()
            XCTAssertEqual(cart.lines, [
                CartLine(sku: "SKU-0005", quantity: 2, unitPriceCents: first.priceCents),
                CartLine(sku: "SKU-0002", quantity: 3, unitPriceCents: second.priceCents),
            ])
            XCTAssertEqual(cart.totalCents, 2 * first.priceCents + 3 * second.priceCents)
            XCTAssertEqual(cart.currency, "USD")
            XCTAssertEqual(try service.cart(id: "c1", interruption: nil), cart)
        }
    }

    func test_addToCart_sameSkuTwice_sumsQuantityOnOneLineKeepingItsPosition() throws {
        try forEachStore {
            _ = try service.addToCartAndWait("c1", "SKU-0001", 1).get()
            _ = try service.addToCartAndWait("c1", "SKU-0002", 1).get()
            let cart = try service.addToCartAndWait("c1", "SKU-0001", 4).get()
            XCTAssertEqual(cart.lines.map(\.sku), ["SKU-0001", "SKU-0002"])
            XCTAssertEqual(cart.lines[0].quantity, 5)
        }
    }

    func test_addToCart_soldOutProduct_isAllowed_stockIsCheckedAtOrderTime() throws {
        try forEachStore {
            XCTAssertEqual(try service.addToCartAndWait("c1", "SKU-0013", 1).get().lines.count, 1)
        }
    }

    func test_addToCart_unknownSku_failsNotFoundProduct_andChangesNothing() throws {
        try forEachStore {
            XCTAssertEqual(service.addToCartAndWait("c1", "SKU-9999", 1).failure, .notFound(entity: "product", id: "SKU-9999"))
            XCTAssertEqual(try service.cart(id: "c1", interruption: nil).lines, [])
        }
    }

    func test_addToCart_quantityOutsideOneToMax_failsInvalidQuantity() throws {
        try forEachStore {
            for quantity in [0, -1, 1000, Int.max, Int.min] {
                XCTAssertEqual(service.addToCartAndWait("c1", "SKU-0001", quantity).failure,
                               .invalidQuantity(sku: "SKU-0001", quantity: quantity, max: 999), "\(quantity)")
            }
        }
    }

    func test_addToCart_lineWouldExceedMax_failsInvalidQuantityWithResultingQuantity_andKeepsLine() throws {
        try forEachStore {
            _ = try service.addToCartAndWait("c1", "SKU-0001", 990).get()
            XCTAssertEqual(service.addToCartAndWait("c1", "SKU-0001", 10).failure, .invalidQuantity(sku: "SKU-0001", quantity: 1000, max: 999))
            XCTAssertEqual(try service.cart(id: "c1", interruption: nil).lines.first?.quantity, 990)
            XCTAssertEqual(try service.addToCartAndWait("c1", "SKU-0001", 9).get().lines.first?.quantity, 999)
        }
    }

    func test_removeFromCart_removesWholeLine_andAbsentLineIsNotAnError() throws {
        try forEachStore {
            _ = try service.addToCartAndWait("c1", "SKU-0001", 3).get()
            _ = try service.addToCartAndWait("c1", "SKU-0002", 1).get()
            let cart = try service.removeFromCartAndWait("c1", "SKU-0001").get()
            XCTAssertEqual(cart.lines.map(\.sku), ["SKU-0002"])
            XCTAssertEqual(cart.totalCents, cart.lines[0].unitPriceCents)
            XCTAssertEqual(try service.removeFromCartAndWait("c1", "SKU-0001").get(), cart)
            XCTAssertEqual(try service.removeFromCartAndWait("other", "SKU-0042").get().lines, [])
        }
    }

    func test_clearCart_removesEveryLine_andLeavesOtherCartsAlone() throws {
        try forEachStore {
            _ = try service.addToCartAndWait("c1", "SKU-0001", 3).get()
            _ = try service.addToCartAndWait("c2", "SKU-0001", 1).get()
            XCTAssertEqual(try service.clearCartAndWait("c1").get(), Cart(cartId: "c1", lines: [], totalCents: 0, currency: "USD"))
            XCTAssertEqual(try service.cart(id: "c1", interruption: nil).lines, [])
            XCTAssertEqual(try service.cart(id: "c2", interruption: nil).lines.count, 1)
        }
    }

    func test_cartIds_withUnusualCharacters_areStoredExactly() throws {
        try forEachStore {
            let id = "weird 'id\" %_ \u{0}é"
            _ = try service.addToCartAndWait(id, "SKU-0001", 1).get()
            XCTAssertEqual(try service.cart(id: id, interruption: nil).lines.count, 1)
            XCTAssertEqual(try service.cart(id: "weird 'id\" %_ ", interruption: nil).lines.count, 0)
        }
    }
}
