import XCTest
@testable import ShopAPI

/// `catalog.list`, `catalog.count` and `catalog.get`.
final class CatalogListingTests: StoreContractTestCase {

    func test_listCatalog_followingCursors_returnsEveryProductExactlyOnceInSkuOrder() throws {
        try forEachStore {
            for pageSize in [1, 7, 50, 240, 1000] {
                let pages = try service.catalogPages(pageSize: pageSize)
                let skus = pages.flatMap(\.items).map(\.sku)
                XCTAssertEqual(skus, (1...240).map(CatalogSeed.sku), "page size \(pageSize)")
                XCTAssertNil(pages.last?.nextCursor)
                XCTAssertTrue(pages.dropLast().allSatisfy { $0.items.count == min(pageSize, ShopLimits.maxPageSize) })
                XCTAssertFalse(pages.contains { $0.items.isEmpty }, "no empty trailing page")
            }
        }
    }

    func test_listCatalog_limitBelowOne_usesDefaultPageSize_andLargeLimitIsClamped() throws {
        try forEachStore {
            XCTAssertEqual(try service.listCatalog(cursor: nil, limit: 0, category: nil, interruption: nil).items.count, ShopLimits.defaultPageSize)
            XCTAssertEqual(try service.listCatalog(cursor: nil, limit: -5, category: nil, interruption: nil).items.count, ShopLimits.defaultPageSize)
            XCTAssertEqual(try service.listCatalog(cursor: nil, limit: 10_000, category: nil, interruption: nil).items.count, ShopLimits.maxPageSize)
        }
    }

    func test_listCatalog_categoryFilter_returnsOnlyThatCategoryAcrossPages() throws {
        try forEachStore {
            let items = try service.catalogPages(pageSize: 15, category: "coffee").flatMap(\.items)
            XCTAssertEqual(items.count, 40)
            XCTAssertTrue(items.allSatisfy { $0.category == "coffee" })
            XCTAssertEqual(items.map(\.sku), items.map(\.sku).sorted())
            XCTAssertEqual(try service.listCatalog(cursor: nil, limit: 10, category: "Coffee", interruption: nil).items, [], "exact match")
        }
    }

    func test_countProducts_matchesEveryPageOfListCatalog_inEachCategory_andLeavesArchivedOut() throws {
        try forEachStore {
            XCTAssertEqual(try service.countProducts(category: nil, interruption: nil).count, try service.catalogPages(pageSize: 200).flatMap(\.items).count)
            for category in Set(try service.catalogPages(pageSize: 200).flatMap(\.items).map(\.category)) {
                XCTAssertEqual(try service.countProducts(category: category, interruption: nil).count,
                               try service.catalogPages(pageSize: 200, category: category).flatMap(\.items).count, category)
            }
            XCTAssertEqual(try service.countProducts(category: "no such category", interruption: nil).count, 0)
            _ = try waitForResult { service.archiveProducts(skus: ["SKU-0001"], interruption: nil, completion: $0) }.get()
            XCTAssertEqual(try service.countProducts(category: nil, interruption: nil).count, 239, "an archived product is not counted")
        }
    }

    func test_listCatalog_garbledCursor_throwsInvalidCursor() throws {
        try forEachStore {
            for cursor in ["!!!", "not-base64-at-all", "cDE", PageCursor.orders(beforeSequence: 5), "cDE6U0tVLTAwMDE=="] {
                XCTAssertThrowsError(try service.listCatalog(cursor: cursor, limit: 10, category: nil, interruption: nil), cursor) {
                    XCTAssertEqual($0 as? ShopError, .invalidCursor(cursor))
                }
            }
        }
    }

    func test_listCatalog_emptyCursor_startsAtBeginning() throws {
        try forEachStore {
            XCTAssertEqual(try service.listCatalog(cursor: "", limit: 1, category: nil, interruption: nil).items.first?.sku, "SKU-0001")
        }
    }

    func test_product_knownSku_returnsIt_unknownSku_throwsNotFound() throws {
        try forEachStore {
            XCTAssertEqual(try service.product(sku: "SKU-0002", interruption: nil).sku, "SKU-0002")
            XCTAssertThrowsError(try service.product(sku: "SKU-9999", interruption: nil)) {
                XCTAssertEqual($0 as? ShopError, .notFound(entity: "product", id: "SKU-9999"))
            }
        }
    }

    func test_catalogPage_json_omitsNilCursor() throws {
        try forEachStore {
            let json = String(decoding: try JSONEncoder().encode(CatalogPage(items: [], nextCursor: nil)), as: UTF8.self)
            XCTAssertEqual(json, #"{"items":[]}"#)
        }
    }
}
