import XCTest
@testable import ShopAPI

/// A store the contract tests run against: SQLite (in memory) always, and PostgreSQL (a fresh
/// database per test) when `SHOP_RPC_TEST_POSTGRES_URI` names a cluster.
enum StoreUnderTest: String, CaseIterable {
    case sqlite
    case postgres

    /// The stores configured in this environment.
    static var available: [StoreUnderTest] {
        PostgreSQLTestDatabase.clusterURI == nil ? [.sqlite] : [.sqlite, .postgres]
    }

    /// A freshly created service (seeded with the demo catalog unless `creation` says otherwise),
    /// and what removes its storage afterwards.
    func open(creation: StoreCreation = .demoCatalog) throws -> (service: ShopService, remove: () -> Void) {
        switch self {
        case .sqlite:
            return (try ShopService.open(path: ":memory:", creation: creation), {})
        case .postgres:
            let database = try PostgreSQLTestDatabase()
            do {
                return (try ShopService.open(path: database.uri, creation: creation), database.drop)
            } catch {
                database.drop()
                throw error
            }
        }
    }
}

// MARK: - StoreContractTestCase

/// Base of the store contract test classes. `forEachStore` runs a test's body once per available
/// store, with `service` freshly opened on it (XCTest on Linux does not discover inherited test
/// methods, so the parameterisation is inside each test rather than in subclasses).
class StoreContractTestCase: XCTestCase {
    /// The service of the store the current pass of `forEachStore` runs on.
    var service: ShopService!
    /// The kind of store the current pass of `forEachStore` runs on (to open another of it).
    var storeUnderTest: StoreUnderTest = .sqlite

    /// Runs `body` once per store in `StoreUnderTest.available`, each time on a fresh service
    /// (created as `creation` says); a failure names the store it happened on.
    func forEachStore(
        creation: StoreCreation = .demoCatalog, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void
    ) throws {
        for store in StoreUnderTest.available {
            let opened = try store.open(creation: creation)
            service = opened.service
            storeUnderTest = store
            defer {
                service = nil
                opened.remove()
            }
            do {
                try body()
            } catch {
                XCTFail("on \(store.rawValue): \(error)", file: file, line: line)
            }
        }
    }
}
