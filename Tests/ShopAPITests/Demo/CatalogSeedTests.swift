import XCTest
@testable import ShopAPI

/// The demo catalog written when a database is created.
final class CatalogSeedTests: XCTestCase {
    func test_open_newDatabase_seedsAtLeast200ProductsInSixCategories() throws {
        let service = try ShopService.open(path: ":memory:")
        let products = try service.allProducts()
        XCTAssertEqual(products.count, 240)
        XCTAssertEqual(Set(products.map(\.category)), ["books", "coffee", "electronics", "garden", "kitchen", "toys"])
        XCTAssertEqual(products.first?.sku, "SKU-0001")
        XCTAssertEqual(products.last?.sku, "SKU-0240")
        XCTAssertEqual(Set(products.map(\.name)).count, products.count, "names are unique")
        XCTAssertTrue(products.allSatisfy { $0.currency == "USD" && $0.priceCents >= 500 && $0.priceCents <= 25099 })
    }

    func test_open_twice_seedsIdenticalCatalogAndStock() throws {
        let first = try ShopService.open(path: ":memory:")
        let second = try ShopService.open(path: ":memory:")
        XCTAssertEqual(try first.allProducts(), try second.allProducts())
        let skus = (1...100).map(CatalogSeed.sku)
        XCTAssertEqual(try first.checkInventory(skus: skus, interruption: nil), try second.checkInventory(skus: skus, interruption: nil))
    }

    func test_seed_soldOutSkus_haveZeroStock_andAllOthersFiveToTwoHundred() throws {
        let service = try ShopService.open(path: ":memory:")
        let skus = (1...CatalogSeed.productCount).map(CatalogSeed.sku)
        var levels: [StockLevel] = []
        for chunk in stride(from: 0, to: skus.count, by: ShopLimits.maxSkusPerCheck) {
            levels += try service.checkInventory(skus: Array(skus[chunk..<min(chunk + ShopLimits.maxSkusPerCheck, skus.count)]), interruption: nil).levels
        }
        XCTAssertEqual(Set(levels.filter { $0.available == 0 }.map(\.sku)), ["SKU-0013", "SKU-0131"])
        XCTAssertTrue(levels.filter { $0.available != 0 }.allSatisfy { (5...200).contains($0.available) })
        XCTAssertEqual(try service.product(sku: "SKU-0013", interruption: nil).category, "books")
        XCTAssertEqual(try service.product(sku: "SKU-0131", interruption: nil).category, "kitchen")
    }

    func test_reopenFile_doesNotSeedAgain() throws {
        let database = TemporaryDatabase()
        defer { database.remove() }
        do {
            let service = try ShopService.open(path: database.path)
            try service.drainStock(of: "SKU-0001", leaving: 3)
        }
        let reopened = try ShopService.open(path: database.path)
        XCTAssertEqual(try reopened.allProducts().count, 240)
        XCTAssertEqual(try reopened.available("SKU-0001"), 3, "stock was not reset by a second seeding")
    }
}
