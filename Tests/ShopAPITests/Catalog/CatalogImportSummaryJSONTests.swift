import Foundation
import XCTest
@testable import ShopAPI

/// The line `shop-rpc import` prints: the counts as before, and `warnings` only when there are
/// some, as valid JSON whatever a column's name holds.
final class CatalogImportSummaryJSONTests: XCTestCase {
    func test_withoutWarnings_theLineIsTheCountsAlone() {
        XCTAssertEqual(CatalogImportSummary(rows: 2, created: 1, updated: 1, unchanged: 0, archived: 0, stockSet: 2).json,
                       #"{"rows":2,"created":1,"updated":1,"unchanged":0,"archived":0,"stockSet":2}"#)
    }

    func test_warnings_areValidJSON_evenForAColumnNameWithQuotesBackslashesAndControls() throws {
        let name = "Odd \"col\" \\ name\t\u{1}é"
        var summary = CatalogImportSummary(rows: 1, created: 1)
        summary.warnings = [
            CatalogImportWarning(kind: .ignoredColumn, column: name, count: 1, lines: [1], message: "skipped"),
            CatalogImportWarning(kind: .newProductsWithoutStock, count: 9, lines: [2, 3, 4, 5, 6], message: "starts at 0"),
        ]
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(summary.json.utf8)) as? [String: Any])
        let warnings = try XCTUnwrap(object["warnings"] as? [[String: Any]])
        XCTAssertEqual(warnings.map { $0["kind"] as? String }, ["ignoredColumn", "newProductsWithoutStock"])
        XCTAssertEqual(warnings[0]["column"] as? String, name)
        XCTAssertNil(warnings[1]["column"], "no column member for a row kind")
        XCTAssertEqual(warnings[1]["count"] as? Int, 9)
        XCTAssertEqual(warnings[1]["lines"] as? [Int], [2, 3, 4, 5, 6])
        XCTAssertEqual(summary.warnings[1].formatted(file: "f.csv"), "f.csv:2: warning: newProductsWithoutStock: starts at 0 (9 rows: lines 2, 3, 4, 5, 6, …)")
        XCTAssertEqual(summary.warnings[0].formatted(file: "f.csv"), "f.csv:1: warning: ignoredColumn: skipped")
    }
}
