import FoundationEssentials
import XCTest
@testable import ShopAPI

/// `StockLedgerWriter`: the ledger's rows as `export ledger` writes them.
final class StockLedgerWriterTests: XCTestCase {
    private let rows = [
        StockMovement(sequence: 1, at: "2026-11-25T10:00:00.000Z", sku: "SKU-0001", delta: -2, availableAfter: 8, reason: .sale,
                      orderId: "ord_00000000000000aa", source: nil, actor: "agent:shop, \"bot\""),
        StockMovement(sequence: 2, at: "2026-11-25T10:00:01.500Z", sku: "SKU-0001", delta: 5, availableAfter: 13, reason: .received,
                      orderId: nil, source: "admin.stock.adjust", actor: nil),
    ]

    private func written(_ format: CatalogFileFormat) throws -> String {
        var writer = StockLedgerWriter(format: format, sink: MemorySink())
        for row in rows { try writer.write(row) }
        try writer.finish()
        return String(decoding: writer.sink.bytes, as: UTF8.self)
    }

    func test_csv_headerThenOneRecordPerRow_absentMembersAsEmptyCells() throws {
        XCTAssertEqual(try written(.csv), [
            "seq,at,sku,delta,availableAfter,reason,orderId,source,actor",
            #"1,2026-11-25T10:00:00.000Z,SKU-0001,-2,8,sale,ord_00000000000000aa,,"agent:shop, ""bot""""#,
            "2,2026-11-25T10:00:01.500Z,SKU-0001,5,13,received,,admin.stock.adjust,",
        ].map { $0 + "\n" }.joined())
    }

    /// Each line is the row as `StockMovement` encodes it, with `sequence` as `seq` and absent
    /// members left out.
    func test_ndjson_oneObjectPerRow_membersAsTheRowsCodableNamesThem() throws {
        let lines = try written(.ndjson).split(separator: "\n")
        XCTAssertEqual(lines.count, rows.count)
        for (line, row) in zip(lines, rows) {
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            var expected = try XCTUnwrap(try JSONSerialization.jsonObject(with: JSONEncoder().encode(row)) as? [String: Any])
            expected["seq"] = expected.removeValue(forKey: "sequence")
            XCTAssertEqual(NSDictionary(dictionary: object), NSDictionary(dictionary: expected))
        }
        XCTAssertEqual(String(lines[1]), #"{"seq":2,"at":"2026-11-25T10:00:01.500Z","sku":"SKU-0001","delta":5,"availableAfter":13,"reason":"received","source":"admin.stock.adjust"}"#)
    }
}
