import Dispatch
import RPCServer
import XCTest
import ShopAPI
import ShopRPCBinding

/// Every shop method's scope and its MCP hints, with the store's inventory and with an inventory
/// service's: a method without a scope would be refused by every restricted server, and one in
/// the wrong scope would be served by the wrong one.
final class ShopMethodScopesTests: XCTestCase {
    /// An inventory service that is never asked here.
    private struct UnusedInventory: InventorySource {
        func checkInventory(skus: [String], deadline: DispatchTime, interruption: any ShopInterruption,
                            completion: @escaping @Sendable (Result<InventoryLevels, ShopError>) -> Void) {}
    }

    private let expected: KeyValuePairs<String, ShopScope> = [
        "catalog.list": .browse, "catalog.count": .browse, "catalog.get": .browse, "catalog.product": .browse, "catalog.search": .browse,
        "inventory.check": .browse,
        "cart.get": .read,
        "cart.add": .write, "cart.remove": .write, "cart.clear": .write, "orders.place": .write, "orders.cancel": .write,
        "orders.get": .read, "orders.list": .read, "admin.stock.adjust": .admin, "admin.stock.set": .admin,
        "admin.products.upsert": .admin, "admin.products.archive": .admin,
        "admin.search.synonyms.get": .admin, "admin.search.synonyms.set": .admin,
    ]

    private func specs(inventory: (any InventorySource)?) throws -> [MethodSpec] {
        ShopMethods.specs(service: try ShopService.open(path: ":memory:"), inventory: inventory)
    }

    func test_everyMethodIsInItsScope_withTheStoresInventoryAndWithAService() throws {
        for inventory in [nil, UnusedInventory() as (any InventorySource)?] {
            let specs = try specs(inventory: inventory)
            XCTAssertEqual(specs.map(\.name), expected.map(\.key))
            for spec in specs {
                XCTAssertEqual(spec.scope, expected.first { $0.key == spec.name }?.value.rawValue, spec.name)
            }
        }
    }

    func test_readMethodsAreHintedReadOnly_writesSayWhetherTheyDestroyAndRepeat() throws {
        for inventory in [nil, UnusedInventory() as (any InventorySource)?] {
            let hints = Dictionary(uniqueKeysWithValues: try specs(inventory: inventory).map { ($0.name, $0.hints) })
            for (name, scope) in expected where scope == .read || scope == .browse {
                XCTAssertEqual(hints[name], .readOnly, name)
            }
            XCTAssertEqual(hints["cart.add"], MethodHints(readOnly: false, destructive: false, idempotent: false))
            XCTAssertEqual(hints["cart.remove"], MethodHints(readOnly: false, destructive: true, idempotent: true))
            XCTAssertEqual(hints["cart.clear"], MethodHints(readOnly: false, destructive: true, idempotent: true))
            XCTAssertEqual(hints["orders.place"], MethodHints(readOnly: false, destructive: false, idempotent: true))
            XCTAssertEqual(hints["orders.cancel"], MethodHints(readOnly: false, destructive: true, idempotent: true))
            XCTAssertEqual(hints["admin.stock.adjust"], MethodHints(readOnly: false, destructive: true, idempotent: false))
            XCTAssertEqual(hints["admin.stock.set"], MethodHints(readOnly: false, destructive: true, idempotent: true))
            XCTAssertEqual(hints["admin.products.upsert"], MethodHints(readOnly: false, destructive: true, idempotent: true))
            XCTAssertEqual(hints["admin.products.archive"], MethodHints(readOnly: false, destructive: true, idempotent: true))
            XCTAssertEqual(hints["admin.search.synonyms.get"], .readOnly)
            XCTAssertEqual(hints["admin.search.synonyms.set"], MethodHints(readOnly: false, destructive: true, idempotent: true))
        }
    }

    func test_theDefaultScopes_serveEveryCustomerMethod_andNoneOfTheOperators() {
        XCTAssertEqual(ShopScope.defaultAllowed, [.read, .write])
        XCTAssertEqual(ShopScope.allCases.map(\.rawValue), ["browse", "read", "write", "admin"])
    }

    func test_read_servesBrowseToo_andNothingElseIsImplied() {
        XCTAssertEqual(ShopScope.served([.read]), [.browse, .read])
        XCTAssertEqual(ShopScope.served(ShopScope.defaultAllowed), [.browse, .read, .write])
        XCTAssertEqual(ShopScope.served([.browse]), [.browse])
        XCTAssertEqual(ShopScope.served([.write]), [.write])
        XCTAssertEqual(ShopScope.served([.admin]), [.admin])
    }
}
