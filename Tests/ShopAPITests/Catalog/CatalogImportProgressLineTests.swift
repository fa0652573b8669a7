import XCTest
@testable import ShopAPI

/// The progress line's text and its redraw rate, on a clock the test sets.
final class CatalogImportProgressLineTests: XCTestCase {
    private let millisecond: UInt64 = 1_000_000

    func test_redrawsAtMostTenTimesASecond_butAlwaysTheFinishingReport() {
        var line = CatalogImportProgressLine(startedAt: 0, totalBytes: 1000, dryRun: false)
        var drawn: [UInt64] = []
        // A report every 10 ms for two seconds.
        for step in 1...200 {
            let now = UInt64(step) * 10 * millisecond
            if line.update(CatalogImportProgress(rows: step * 100, bytesRead: step * 5), now: now) != nil { drawn.append(now) }
        }
        XCTAssertEqual(drawn.count, 20, "one per 100 ms")
        XCTAssertTrue(zip(drawn, drawn.dropFirst()).allSatisfy { $1 - $0 >= CatalogImportProgressLine.minimumRedrawNanoseconds })
        let final = line.update(CatalogImportProgress(rows: 20_000, bytesRead: 1000, finishing: true), now: 2001 * millisecond)
        XCTAssertNotNil(final, "drawn 1 ms after the last one")
    }

    func test_text_rowsRateAndPercent_orNoPercentWhenTheSizeIsUnknown() {
        var line = CatalogImportProgressLine(startedAt: 1_000 * millisecond, totalBytes: 4000, dryRun: false)
        XCTAssertEqual(line.update(CatalogImportProgress(rows: 50_000, bytesRead: 1000), now: 3_000 * millisecond),
                       "50000 rows, 25000 rows/s, 25% of the file")
        XCTAssertEqual(line.update(CatalogImportProgress(rows: 80_000, bytesRead: 4000, finishing: true), now: 5_000 * millisecond),
                       "80000 rows, 20000 rows/s, 100% of the file, committing")
        var fromPipe = CatalogImportProgressLine(startedAt: 0, totalBytes: nil, dryRun: true)
        XCTAssertEqual(fromPipe.update(CatalogImportProgress(rows: 10, bytesRead: 99, finishing: true), now: 1_000 * millisecond),
                       "10 rows, 10 rows/s, checking")
    }
}
