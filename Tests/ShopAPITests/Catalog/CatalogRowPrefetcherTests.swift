import XCTest
@testable import ShopAPI

/// `CatalogRowPrefetcher`: every row in order whatever the batch boundaries, the errors reported to
/// it handed to the real source after the file's own, and failures on either side.
final class CatalogRowPrefetcherTests: XCTestCase {
    private func rows(_ count: Int) -> [CatalogRow] {
        (0..<count).map { CatalogRow(line: $0 + 2, sku: "S-\($0)") }
    }

    func test_everyRowArrivesInOrder_acrossBatches() throws {
        for count in [0, 1, CatalogRowPrefetcher<RowListSource>.batchSize, 5000] {
            var source = RowListSource(rows(count))
            let seen: [String] = try CatalogRowPrefetcher.run(&source) { prefetched in
                var skus: [String] = []
                while let row = try prefetched.nextRow() { skus.append(row.sku) }
                XCTAssertEqual(prefetched.bytesRead, count)
                return skus
            }
            XCTAssertEqual(seen, rows(count).map(\.sku))
        }
    }

    func test_reportedErrors_reachTheSource_afterTheFilesOwn() throws {
        let fileError = RowListSource.Error(line: 3000, field: "stock", message: "-1 is negative")
        var source = RowListSource(rows(4000), fileErrors: [fileError])
        try CatalogRowPrefetcher.run(&source) { prefetched in
            while let row = try prefetched.nextRow() {
                if row.line == 10 { prefetched.reportError(line: 10, field: "name", message: "missing") }
            }
            XCTAssertTrue(prefetched.hasErrors)
        }
        XCTAssertEqual(source.errors, [fileError, RowListSource.Error(line: 10, field: "name", message: "missing")])
    }

    func test_aReadingFailure_isThrownToTheStore() {
        var source = FailingSource()
        XCTAssertThrowsError(try CatalogRowPrefetcher.run(&source) { prefetched in
            while try prefetched.nextRow() != nil {}
        }) { XCTAssertEqual($0 as? FailingSource.Failure, FailingSource.Failure()) }
    }

    func test_aStoreFailure_stopsTheReading_andIsRethrown() {
        struct StoreFailed: Error {}
        var source = RowListSource(rows(100_000))
        XCTAssertThrowsError(try CatalogRowPrefetcher.run(&source) { prefetched in
            _ = try prefetched.nextRow()
            throw StoreFailed()
        }) { XCTAssertTrue($0 is StoreFailed) }
    }

    /// Three good rows, then a read error.
    private struct FailingSource: CatalogRowSource {
        struct Failure: Error, Equatable {}
        var given = 0
        mutating func nextRow() throws -> CatalogRow? {
            given += 1
            if given > 3 { throw Failure() }
            return CatalogRow(line: given + 1, sku: "F-\(given)")
        }
        var hasErrors: Bool { false }
        mutating func reportError(line: Int, field: String, message: String) {}
        var bytesRead: Int { given }
    }
}
