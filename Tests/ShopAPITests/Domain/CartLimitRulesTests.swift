import XCTest
@testable import ShopAPI

/// `ShopLimits.maxCartLines` and the checked money sums (issue #40), against the fake store, so
/// that a cart written before the limit can be planted.
final class CartLimitRulesTests: XCTestCase {
    private static let maxPrice = CatalogLimits.maxPriceCents
    private static let products = (0...ShopLimits.maxCartLines).map {
        Product(sku: String(format: "BIG-%05d", $0), name: "Big", description: "", category: "c", priceCents: maxPrice, currency: "USD")
    }

    private var store: InMemoryShopStore!
    private var service: ShopService!

    override func setUp() {
        store = InMemoryShopStore(products: Self.products.map { ($0, stock: 5) })
        service = ShopService(store: store, now: { Date(timeIntervalSince1970: 1_795_428_000) }, makeOrderId: { "ord_00000000000000bb" })
    }

    /// The cart: 9 233 lines of 999 units at 10^12 cents, 9.2237 × 10^18 > Int64.max.
    private static func overflowingLines(sku: String = "BIG-00000") -> [CartLine] {
        Array(repeating: CartLine(sku: sku, quantity: ShopLimits.maxLineQuantity, unitPriceCents: maxPrice), count: 9233)
    }

    // MARK: - The sum

    func test_checkedTotalCents_sumPastInt64_isNil_notATrap() {
        XCTAssertNil(Self.overflowingLines().checkedTotalCents)
        XCTAssertNil([CartLine(sku: "x", quantity: Int.max, unitPriceCents: 2)].checkedTotalCents, "the product overflows")
        XCTAssertEqual(Array(Self.overflowingLines().dropLast()).checkedTotalCents, 9232 * 999 * Self.maxPrice)
    }

    func test_checkedTotalCents_largestCartUnderTheLimit_fitsWithRoomToSpare() {
        let lines = Array(repeating: CartLine(sku: "x", quantity: ShopLimits.maxLineQuantity, unitPriceCents: Self.maxPrice), count: ShopLimits.maxCartLines)
        let total = try? XCTUnwrap(lines.checkedTotalCents)
        XCTAssertEqual(total, 99_900_000_000_000_000)
        XCTAssertLessThan(total ?? .max, Int.max / 90)
    }

    // MARK: - The line limit

    func test_addToCart_newLinePastMaxCartLines_isCartFull_andAnExistingLineStillGrows() throws {
        for product in Self.products.prefix(ShopLimits.maxCartLines) {
            _ = try service.addToCartAndWait("c", product.sku, 1).get()
        }
        let past = try XCTUnwrap(Self.products.last)
        XCTAssertEqual(service.addToCartAndWait("c", past.sku, 1).failure,
                       .cartFull(cartId: "c", lines: ShopLimits.maxCartLines, max: ShopLimits.maxCartLines))
        let grown = try service.addToCartAndWait("c", Self.products[0].sku, 998).get()
        XCTAssertEqual(grown.lines.count, ShopLimits.maxCartLines)
        XCTAssertEqual(grown.lines[0].quantity, 999)
    }

    // MARK: - Carts written before the limit

    func test_cart_oldCartWhoseTotalOverflows_isCartTotalOutOfRange() {
        store.plantCart("old", lines: Self.overflowingLines())
        XCTAssertThrowsError(try service.cart(id: "old", interruption: nil)) { error in
            XCTAssertEqual(error as? ShopError, .cartTotalOutOfRange(cartId: "old"))
        }
        XCTAssertEqual(service.addToCartAndWait("old", Self.products[1].sku, 1).failure,
                       .cartFull(cartId: "old", lines: 9233, max: ShopLimits.maxCartLines))
    }

    func test_placeOrder_oldCartWhoseTotalOverflows_isCartTotalOutOfRange_andTakesNoStock() {
        store.plantCart("old", lines: Self.overflowingLines())
        XCTAssertEqual(service.placeOrderAndWait("old", key: "k").failure, .cartTotalOutOfRange(cartId: "old"))
        XCTAssertEqual(store.stock("BIG-00000"), 5)
    }
}
