import XCTest
@testable import ShopAPI

/// A query matching more products than search ranks (`ProductSearch.rankingWindow`), on every
/// store: the products whose name has every word are ranked even when they come last in catalog
/// order, `total` counts every match and says it is an estimate, paging ends with the ranked
/// ones, and every store gives the same pages.
final class SearchRankingWindowTests: XCTestCase {
    private static let window = ProductSearch.rankingWindow

    /// `2 × window + 100` products with "steel" in their description only, then 30 with it in
    /// their name: the name ones come last in catalog order.
    private func rows() -> [CatalogRow] {
        let described = (0..<(2 * Self.window + 100)).map { index in
            CatalogRow(line: index + 2, sku: String(format: "DESC-%05ld", index), name: "Plain Widget \(index)",
                       description: "A widget with a steel finish.", category: index % 2 == 0 ? "tools" : "garden", priceCents: 100 + index)
        }
        let named = (0..<30).map { index in
            CatalogRow(line: described.count + index + 2, sku: String(format: "NAME-%05ld", index), name: "Steel Widget \(index)",
                       description: "A widget.", category: "kitchen", priceCents: 5000 + index)
        }
        return described + named
    }

    private func services(indexedOnly: Bool = false) throws -> (services: [(String, ShopService)], postgres: PostgreSQLTestDatabase?) {
        let stores = try SearchTestStores(rows(), indexedOnly: indexedOnly)
        return (stores.services, stores.postgres)
    }

    func test_aBroadWord_ranksTheNamesThatHaveIt_first_evenLastInCatalogOrder_onEveryStore() throws {
        let (services, postgres) = try services()
        defer { postgres?.drop() }
        let total = rows().count
        for (name, service) in services {
            let page = try service.searchProducts(ProductSearchRequest(query: "steel", limit: 40, facets: [.category]), interruption: nil)
            XCTAssertEqual(page.items.prefix(30).map(\.sku), (0..<30).map { String(format: "NAME-%05ld", $0) }, name)
            XCTAssertEqual(page.items[30].sku, "DESC-00000", "\(name): then the first in catalog order")
            XCTAssertEqual(page.total, total, name)
            XCTAssertEqual(page.totalIsEstimate, true, name)
            // Facets count the ranked products: the 30 named ones and the first `window` others.
            XCTAssertEqual(page.facets?.category, [FacetValueCount(value: "garden", count: Self.window / 2),
                                                   FacetValueCount(value: "tools", count: Self.window / 2),
                                                   FacetValueCount(value: "kitchen", count: 30)], name)
        }
    }

    func test_pagingABroadWord_endsWithTheRankedProducts_andEveryStoreGivesTheSamePages() throws {
        let (services, postgres) = try services(indexedOnly: true)
        defer { postgres?.drop() }
        var requests = [ProductSearchRequest(query: "steel", limit: 200), ProductSearchRequest(query: "wid", limit: 200),
                        ProductSearchRequest(query: "steel widget", sort: .priceDescending, limit: 200),
                        ProductSearchRequest(query: "", sort: .name, limit: 200)]
        var seen: [[String]] = Array(repeating: [], count: requests.count)
        for index in requests.indices {
            for _ in 0..<20 {
                let pages = try services.map { try $0.1.searchProducts(requests[index], interruption: nil) }
                for (store, page) in pages.enumerated().dropFirst() {
                    XCTAssertEqual(page, pages[0], "\(services[store].0): \(requests[index])")
                }
                seen[index] += pages[0].items.map(\.sku)
                guard let next = pages[0].nextCursor else { break }
                requests[index].cursor = next
            }
        }
        XCTAssertEqual(seen[0].count, Self.window + 30, "the first window of all, and the named ones")
        XCTAssertEqual(Set(seen[0]).count, seen[0].count, "no product twice")
        XCTAssertEqual(seen[1].count, Self.window, "a prefix every name has: the first window")
        XCTAssertEqual(seen[2].first, "NAME-00029", "a sort orders the ranked products")
        XCTAssertEqual(seen[3].count, 2 * Self.window, "a sorted browse: the first products in catalog order")
    }

    /// Every word finds one product, late in catalog order, fewer than a page, so the last word
    /// is left out, which matches more products than are ranked: the one with every word stays
    /// first. A query that is a SKU leaves no word out.
    func test_theProductWithEveryWord_staysFirst_whenLeavingAWordOutMatchesMoreThanAreRanked() throws {
        let (services, postgres) = try services()
        defer { postgres?.drop() }
        let number = 2 * Self.window + 90
        let late = String(format: "DESC-%05ld", number)
        for (name, service) in services {
            let page = try service.searchProducts(ProductSearchRequest(query: "widget \(number)", limit: 5), interruption: nil)
            XCTAssertEqual(page.items.first?.sku, late, name)
            XCTAssertEqual(page.totalIsEstimate, true, name)
            XCTAssertEqual(page.droppedWords, ["\(number)"], name)
            let sku = try service.searchProducts(ProductSearchRequest(query: late, limit: 5), interruption: nil)
            XCTAssertEqual(sku.items.map(\.sku), [late], name)
            XCTAssertNil(sku.droppedWords, name)
        }
    }

    func test_aQueryOfFewProducts_isExact() throws {
        let (services, postgres) = try services()
        defer { postgres?.drop() }
        for (name, service) in services {
            let page = try service.searchProducts(ProductSearchRequest(query: "kitchen widget", limit: 5), interruption: nil)
            XCTAssertNil(page.totalIsEstimate, name)
            XCTAssertEqual(page.total, 30, name)
            XCTAssertEqual(page.items.first?.sku, "NAME-00000", name)
            let one = try service.searchProducts(ProductSearchRequest(query: "steel widget 7", limit: 5), interruption: nil)
            XCTAssertEqual(one.items.first?.sku, "NAME-00007", "\(name): the product with every word first")
        }
    }
}
