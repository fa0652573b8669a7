import XCTest
@testable import ShopAPI

/// The stores a search test compares, each given the same rows: SQLite with its FTS5 index, and
/// unless `indexedOnly` SQLite without it and the in-memory reference (which read every product
/// per search), and PostgreSQL when `SHOP_RPC_TEST_POSTGRES_URI` is set. The caller drops
/// `postgres` when done.
struct SearchTestStores {
    var services: [(String, ShopService)]
    var postgres: PostgreSQLTestDatabase?

    init(_ rows: [CatalogRow], indexedOnly: Bool = false, file: StaticString = #filePath, line: UInt = #line) throws {
        services = [("SQLite", try ShopService.open(path: ":memory:", creation: .empty))]
        if !indexedOnly {
            services += [
                ("SQLite scan", ShopService(store: try SQLiteShopStore.open(path: ":memory:", creation: .empty, allowFullTextSearch: false))),
                ("in-memory", ShopService(store: InMemoryShopStore(products: []))),
            ]
        }
        if PostgreSQLTestDatabase.clusterURI != nil {
            let database = try PostgreSQLTestDatabase()
            postgres = database
            services.append(("PostgreSQL", try ShopService.open(path: database.uri, creation: .empty)))
        }
        for (name, service) in services {
            let (outcome, errors) = try service.importRows(rows)
            XCTAssertEqual(errors, [], name, file: file, line: line)
            XCTAssertTrue(outcome.committed, name, file: file, line: line)
        }
    }
}
