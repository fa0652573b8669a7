import XCTest
@testable import ShopAPI

/// `inventory.check`.
final class InventoryTests: StoreContractTestCase {
    func test_checkInventory_answersInRequestOrder_includingDuplicates() throws {
        try forEachStore {
            let levels = try service.checkInventory(skus: ["SKU-0003", "SKU-0013", "SKU-0001", "SKU-0003"], interruption: nil).levels
            XCTAssertEqual(levels.map(\.sku), ["SKU-0003", "SKU-0013", "SKU-0001", "SKU-0003"])
            XCTAssertEqual(levels[1].available, 0)
            XCTAssertEqual(levels[0], levels[3])
        }
    }

    func test_checkInventory_unknownSku_throwsNotFoundProduct() throws {
        try forEachStore {
            XCTAssertThrowsError(try service.checkInventory(skus: ["SKU-0001", "nope"], interruption: nil)) {
                XCTAssertEqual($0 as? ShopError, .notFound(entity: "product", id: "nope"))
            }
        }
    }

    func test_checkInventory_noSkus_returnsNoLevels() throws {
        try forEachStore {
            XCTAssertEqual(try service.checkInventory(skus: [], interruption: nil).levels, [])
        }
    }

    func test_checkInventory_reflectsPlacedOrders() throws {
        try forEachStore {
            let before = try service.available("SKU-0002")
            _ = try service.addToCartAndWait("c", "SKU-0002", 2).get()
            XCTAssertEqual(try service.available("SKU-0002"), before, "carts do not reserve stock")
            _ = try service.placeOrderAndWait("c", key: "k").get()
            XCTAssertEqual(try service.available("SKU-0002"), before - 2)
        }
    }
}
