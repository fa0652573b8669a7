import XCTest
@testable import ShopAPI

/// The preset's records through the catalog reader's own checks: each check names the platform
/// file's line and column, and the translator's errors and the checks' come together in line order.
final class PlatformCatalogReaderTests: XCTestCase {
    private func read(_ text: String, _ preset: CatalogPreset = .shopify, chunkSizes: [Int] = []) -> (reader: PlatformCatalogReader<MemorySource>, rows: [CatalogRow]) {
        var reader = PlatformCatalogReader(preset: preset, options: PlatformImportOptions(),
                                           source: MemorySource(Array(text.utf8), chunkSizes: chunkSizes))
        var rows: [CatalogRow] = []
        while let row = try! reader.next() { rows.append(row) }
        return (reader, rows)
    }

    func test_checkedValues_nameThePlatformRowsLine_afterARecordSpanningLines_andThePlatformsColumn() {
        let text = "Handle,Title,Body (HTML),Variant SKU,Variant Price\n"
            + "mug,Mug,\"<p>Two\nlines\nhere</p>\",MUG-1,4.50\n"
            + "mug,,,\"MUG\t2\",5\n"
            + "cap,Cap,,CAP-1,x\n"
        for chunks in [[], [1], [5, 2]] {
            let (reader, _) = read(text, chunkSizes: chunks)
            let errors = reader.errors.shown
            XCTAssertTrue(errors.contains(CatalogFileError(line: 5, field: "sku (Variant SKU)", message: "contains a control character")),
                          "\(errors)")
            XCTAssertTrue(errors.contains(CatalogFileError(line: 6, field: "Variant Price", message: "\"x\" is not a price in currency units (such as 19.99)")),
                          "\(errors)")
            XCTAssertEqual(errors.map(\.line), errors.map(\.line).sorted(), "one list, in line order")
            XCTAssertTrue(reader.hasErrors)
        }
    }

    func test_bytesRead_isThePlatformFilesSize_andTheReportHasTheIgnoredColumns() {
        let text = "Handle,Title,Variant SKU,Variant Price,Tags,Image Src\nmug,Mug,MUG-1,4.50,,a.jpg\nmug,,,,,b.jpg\n"
        let (reader, _) = read(text)
        XCTAssertEqual(reader.bytesRead, text.utf8.count)
        XCTAssertEqual(reader.report.ignoredColumns, ["Tags", "Image Src"])
        XCTAssertEqual(reader.report.skippedRows, [.imageOnly: 1])
    }

    func test_summaryJSON_endsWithThePlatformMember() {
        var report = PlatformImportReport(preset: .woocommerce)
        report.ignoredColumns = ["Images", "Weight (\"lbs\")"]
        report.countSkipped(.external)
        report.countSkipped(.grouped)
        report.countSkipped(.grouped)
        let summary = CatalogImportSummary(rows: 3, created: 3, stockSet: 1)
        XCTAssertEqual(report.summaryJSON(summary),
                       #"{"rows":3,"created":3,"updated":0,"unchanged":0,"archived":0,"stockSet":1,"platform":{"from":"woocommerce","ignoredColumns":["Images","Weight (\"lbs\")"],"skippedRows":{"grouped":2,"external":1},"negativeStockAsZero":0}}"#)
    }

    func test_recordsBecomeNDJSONLines_integersAsNumbers_pricesAndTextAsStrings() {
        var record = CanonicalCatalogRecord(line: 2)
        record[.sku] = "A\"1"
        record[.name] = "Line\nbreak"
        record[.price] = "19.99"
        record[.stock] = "3"
        var out: [UInt8] = []
        CanonicalNDJSON.append(record, to: &out)
        XCTAssertEqual(String(decoding: out, as: UTF8.self), #"{"sku":"A\"1","name":"Line\nbreak","price":"19.99","stock":3}"#)
    }
}
