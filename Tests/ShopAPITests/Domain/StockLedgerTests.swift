import XCTest
@testable import ShopAPI

/// The stock ledger: one row for every change of stock, with what made it, and the invariant that
/// the deltas add up to the level.
final class StockLedgerTests: StoreContractTestCase {

    func test_everyChangeOfStock_appendsOneRow_withItsReasonOrderSourceAndActor() throws {
        try forEachStore {
            let skus = ["SKU-0001", "SKU-0004"]
            let before = Dictionary(uniqueKeysWithValues: try skus.map { ($0, try service.available($0)) })
            _ = try service.addToCartAndWait("c1", "SKU-0004", 2).get()
            _ = try service.addToCartAndWait("c1", "SKU-0001", 3).get()
            let order = try service.placeOrderAndWait("c1", key: "k1", actor: "alice").get()
            _ = try service.cancelOrderAndWait(order.orderId, reason: "test", actor: "agent:claude").get()
            _ = try service.adjustStockAndWait("SKU-0001", by: 10, .received, actor: "carol").get()
            _ = try service.setStockAndWait("SKU-0004", to: 7).get()

            let rows = try service.ledger()
            struct Row: Equatable { var sku: String, delta: Int, reason: StockMovement.Reason, orderId: String?, source: String?, actor: String? }
            // Orders and cancels go through lines in an order of their own; within one, compare as sets.
            let described = rows.map { Row(sku: $0.sku, delta: $0.delta, reason: $0.reason, orderId: $0.orderId, source: $0.source, actor: $0.actor) }
            XCTAssertEqual(described.count, 6, "\(rows)")
            let sale = described.prefix(2).sorted { $0.sku < $1.sku }
            XCTAssertEqual(sale, [
                Row(sku: "SKU-0001", delta: -3, reason: .sale, orderId: order.orderId, source: nil, actor: "alice"),
                Row(sku: "SKU-0004", delta: -2, reason: .sale, orderId: order.orderId, source: nil, actor: "alice"),
            ])
            XCTAssertEqual(Array(described.dropFirst(2).prefix(2)), [
                Row(sku: "SKU-0001", delta: 3, reason: .cancellation, orderId: order.orderId, source: nil, actor: "agent:claude"),
                Row(sku: "SKU-0004", delta: 2, reason: .cancellation, orderId: order.orderId, source: nil, actor: "agent:claude"),
            ], "a cancel restocks in SKU order")
            XCTAssertEqual(Array(described.suffix(2)), [
                Row(sku: "SKU-0001", delta: 10, reason: .received, orderId: nil, source: "admin.stock.adjust", actor: "carol"),
                Row(sku: "SKU-0004", delta: 7 - before["SKU-0004"]!, reason: .set, orderId: nil, source: "admin.stock.set", actor: nil),
            ])
            XCTAssertEqual(rows.map(\.sequence), rows.map(\.sequence).sorted())
            XCTAssertEqual(Set(rows.map(\.sequence)).count, rows.count)
            for row in rows {
                XCTAssertNotNil(row.at.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/), row.at)
            }
            XCTAssertEqual(rows.first?.at, order.createdAt, "an order's rows carry its time")
            try assertLedgerInvariant(service, skus: skus, levelsBefore: before)
        }
    }

    func test_refusedChanges_appendNoRows() throws {
        try forEachStore {
            try service.drainStock(of: "SKU-0006", leaving: 1)
            let rows = try service.ledger().count
            _ = try service.addToCartAndWait("c1", "SKU-0001", 1).get()
            _ = try service.addToCartAndWait("c1", "SKU-0006", 2).get()
            XCTAssertNotNil(service.placeOrderAndWait("c1", key: "k1").failure, "out of stock on its second line")
            XCTAssertNotNil(service.adjustStockAndWait("SKU-0006", by: -2).failure)
            XCTAssertNotNil(service.setStockAndWait("SKU-0006", to: 5, expected: 9).failure)
            _ = try service.setStockAndWait("SKU-0006", to: 1).get()  // the level it has: no change
            XCTAssertEqual(try service.ledger().count, rows)
            try assertLedgerInvariant(service, skus: ["SKU-0001", "SKU-0006"])
        }
    }

    func test_stockMovements_pageInLedgerOrder_andSinceFiltersByTime() throws {
        try forEachStore {
            for delta in 1...7 {
                _ = try service.adjustStockAndWait("SKU-0002", by: delta).get()
            }
            let all = try service.ledger()
            XCTAssertEqual(all.map(\.delta), Array(1...7))
            XCTAssertEqual(try service.ledger(pageSize: 3), all, "pages of 3 follow one another")
            let firstPage = try service.stockMovements(afterSequence: 0, since: nil, limit: 3, interruption: nil)
            XCTAssertEqual(firstPage, Array(all.prefix(3)))
            XCTAssertEqual(try service.stockMovements(afterSequence: firstPage[2].sequence, since: nil, limit: 100, interruption: nil),
                           Array(all.dropFirst(3)))
            XCTAssertEqual(try service.ledger(since: all[4].at), all.filter { $0.at >= all[4].at })
            XCTAssertEqual(try service.ledger(since: "9999-01-01T00:00:00.000Z"), [])
            XCTAssertEqual(try service.ledger(since: "0000-01-01T00:00:00.000Z"), all)
        }
    }

    /// A mixed run of every kind of change on a few SKUs, one after another: the invariant holds
    /// for each, and each level is its level before plus its deltas.
    func test_deltasAddUpToTheLevel_afterManyMixedChanges() throws {
        try forEachStore {
            let skus = ["SKU-0021", "SKU-0022", "SKU-0023"]
            let before = Dictionary(uniqueKeysWithValues: try skus.map { ($0, try service.available($0)) })
            var orders: [Order] = []
            for step in 0..<30 {
                let sku = skus[step % skus.count]
                switch step % 5 {
                case 0, 1:
                    _ = try service.addToCartAndWait("c\(step)", sku, 1 + step % 3).get()
                    _ = try service.addToCartAndWait("c\(step)", skus[(step + 1) % skus.count], 1).get()
                    if case .success(let order) = service.placeOrderAndWait("c\(step)", key: "k\(step)") { orders.append(order) }
                case 2:
                    if let order = orders.popLast() { _ = try service.cancelOrderAndWait(order.orderId).get() }
                case 3:
                    _ = service.adjustStockAndWait(sku, by: step % 2 == 0 ? 4 : -3, .correction)
                default:
                    _ = try service.setStockAndWait(sku, to: step, expected: try service.available(sku)).get()
                }
            }
            try assertLedgerInvariant(service, skus: skus, levelsBefore: before)
        }
    }
}

/// The ledger rows of a catalog import (`shop-rpc import`, and `admin.products.upsert` through it).
final class StockLedgerImportTests: StoreContractTestCase {
    func test_import_appendsARowForEveryLevelItChanges_andNoneForTheRest() throws {
        try forEachStore {
            let skus = ["SKU-0001", "SKU-0002", "SKU-0003", "NEW-1", "NEW-2"]
            let before = try service.available("SKU-0001")
            let (outcome, errors) = try service.importRows([
                CatalogRow(line: 2, sku: "SKU-0001", stock: before + 5),             // a level that changes
                CatalogRow(line: 3, sku: "SKU-0002", stock: try service.available("SKU-0002")),  // the level it has
                CatalogRow(line: 4, sku: "SKU-0003", name: "Renamed"),                // no stock column
                newRow("NEW-1", line: 5, stock: 12),                                  // a new product with stock
                newRow("NEW-2", line: 6),                                             // a new product at 0
            ])
            XCTAssertEqual(errors, [])
            XCTAssertTrue(outcome.committed)
            let rows = try service.ledger()
            XCTAssertEqual(rows.map { "\($0.sku) \($0.delta) \($0.availableAfter) \($0.reason.rawValue) \($0.source ?? "-")" }.sorted(), [
                "NEW-1 12 12 import shop-rpc import",
                "SKU-0001 5 \(before + 5) import shop-rpc import",
            ])
            XCTAssertEqual(Set(rows.map(\.at)).count, 1, "one import, one time")
            XCTAssertNil(rows.first?.actor)
            try assertLedgerInvariant(service, skus: Array(skus.prefix(3)))
            XCTAssertEqual(try service.available("NEW-1"), 12)
        }
    }

    func test_importThatFails_orADryRun_appendsNoRows() throws {
        try forEachStore {
            let level = try service.available("SKU-0001")
            let (failed, errors) = try service.importRows([
                CatalogRow(line: 2, sku: "SKU-0001", stock: level + 1),
                CatalogRow(line: 3, sku: "NOPE", stock: 1),  // a new product without name, category, price
            ])
            XCTAssertFalse(failed.committed)
            XCTAssertFalse(errors.isEmpty)
            let (dry, _) = try service.importRows([CatalogRow(line: 2, sku: "SKU-0001", stock: level + 1)], dryRun: true)
            XCTAssertFalse(dry.committed)
            XCTAssertEqual(try service.ledger(), [])
            XCTAssertEqual(try service.available("SKU-0001"), level)
        }
    }

    /// The import's delta is from the level it replaces when it writes, whatever orders and
    /// adjusts did before: the chain of rows still adds up.
    func test_importAfterOrdersAndAdjusts_keepsTheChain() throws {
        try forEachStore {
            _ = try service.addToCartAndWait("c", "SKU-0004", 3).get()
            _ = try service.placeOrderAndWait("c", key: "k").get()
            _ = try service.adjustStockAndWait("SKU-0004", by: 7, .received).get()
            _ = try service.importRows([CatalogRow(line: 2, sku: "SKU-0004", stock: 2)])
            _ = try service.adjustStockAndWait("SKU-0004", by: -1, .damaged).get()
            let rows = try assertLedgerInvariant(service, skus: ["SKU-0004"])["SKU-0004"] ?? []
            XCTAssertEqual(rows.map(\.reason), [.sale, .received, .import, .damaged])
            XCTAssertEqual(rows.map(\.availableAfter).suffix(2), [2, 1])
        }
    }
}
