import XCTest
@testable import ShopAPI

/// Every export's record layout (`ExportSubject`'s columns and `RecordWriter`'s records, both in
/// ShopAPI): a record fills exactly its subject's columns, in their order.
final class ExportRecordTests: XCTestCase {
    private func ndjson(_ subject: ExportSubject, _ write: (inout RecordWriter<MemorySink>) throws -> Void) throws -> [[String: Any]] {
        var writer = RecordWriter(format: .ndjson, columns: subject.columns, sink: MemorySink())
        try write(&writer)
        try writer.finish()
        return try String(decoding: writer.sink.bytes, as: UTF8.self).split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    func test_orderRecord_isOnePerLine_numberedFromOne_inTheOrdersColumns() throws {
        let order = Order(orderId: "o-1", cartId: "c-1", lines: [CartLine(sku: "A", quantity: 2, unitPriceCents: 150), CartLine(sku: "B", quantity: 1, unitPriceCents: 99)],
                          totalCents: 399, currency: "USD", status: "placed", createdAt: "2026-11-23T10:00:00Z", customer: "alice")
        let records = try ndjson(.orders) { try $0.writeOrderLines(order) }
        XCTAssertEqual(records.count, 2)
        XCTAssertEqual(records.map { $0["customer"] as? String }, ["alice", "alice"])
        XCTAssertEqual(records.map { $0["line"] as? Int }, [1, 2])
        XCTAssertEqual(records.map { $0["sku"] as? String }, ["A", "B"])
        XCTAssertEqual(Set(records[0].keys), Set(ExportSubject.orders.columns))
        XCTAssertEqual(records[1]["unitPriceCents"] as? Int, 99)
        XCTAssertEqual(records[1]["totalCents"] as? Int, 399)
    }

    func test_orderRecord_ofNoCustomer_leavesTheCustomerOut() throws {
        let order = Order(orderId: "o-1", cartId: "c-1", lines: [CartLine(sku: "A", quantity: 2, unitPriceCents: 150)],
                          totalCents: 300, currency: "USD", status: "placed", createdAt: "2026-11-23T10:00:00Z")
        let records = try ndjson(.orders) { try $0.writeOrderLines(order) }
        XCTAssertEqual(Set(records[0].keys), Set(ExportSubject.orders.columns).subtracting(["customer"]))
    }

    func test_ledgerRecord_fillsTheLedgersColumns_leavingAbsentOnesOut() throws {
        let movement = StockMovement(sequence: 7, at: "2026-11-23T10:00:00Z", sku: "A", delta: -2, availableAfter: 5, reason: .sale,
                                     orderId: "o-1", source: nil, actor: nil)
        let records = try ndjson(.ledger) { try $0.writeStockMovement(movement) }
        XCTAssertEqual(records.count, 1)
        XCTAssertEqual(Set(records[0].keys), Set(ExportSubject.ledger.columns).subtracting(["source", "actor"]))
        XCTAssertEqual(records[0]["seq"] as? Int, 7)
        XCTAssertEqual(records[0]["reason"] as? String, "sale")
    }

    func test_stockRecord_isSkuAndStock_asImportReadsThem() throws {
        let records = try ndjson(.stock) { try $0.writeStockLevel(sku: "A", stock: 3) }
        XCTAssertEqual(records.count, 1)
        XCTAssertEqual(records[0]["sku"] as? String, "A")
        XCTAssertEqual(records[0]["stock"] as? Int, 3)
        XCTAssertEqual(ExportSubject.stock.columns, [CatalogColumn.sku.rawValue, CatalogColumn.stock.rawValue])
    }

    func test_sinceApplies_toOrdersAndLedgerOnly() {
        XCTAssertEqual(ExportSubject.allCases.filter(\.takesSince), [.orders, .ledger])
    }
}
