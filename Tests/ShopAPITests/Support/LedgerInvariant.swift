import XCTest
@testable import ShopAPI

// MARK: - The ledger invariant

/// Checks the stock ledger against the levels of `skus`, on `service`: for each SKU, each row's
/// `availableAfter` is the one before it plus its `delta` (ledger order), the last row's is the
/// current level, and so the deltas add up to the current level minus the level before the first
/// row; no level or row is negative. `levelsBefore`, when given, is each SKU's level before its
/// first row (what the test set up). Returns the rows per SKU.
@discardableResult
func assertLedgerInvariant(
    _ service: ShopService, skus: [String], levelsBefore: [String: Int]? = nil,
    file: StaticString = #filePath, line: UInt = #line
) throws -> [String: [StockMovement]] {
    let rows = Dictionary(grouping: try service.ledger(), by: \.sku)
    for sku in skus {
        let current = try service.available(sku)
        XCTAssertGreaterThanOrEqual(current, 0, "\(sku) is negative", file: file, line: line)
        let movements = rows[sku] ?? []
        guard let first = movements.first else {
            if let before = levelsBefore?[sku] { XCTAssertEqual(current, before, "\(sku) changed without a ledger row", file: file, line: line) }
            continue
        }
        for (earlier, later) in zip(movements, movements.dropFirst()) {
            XCTAssertLessThan(earlier.sequence, later.sequence, file: file, line: line)
            XCTAssertEqual(later.availableAfter, earlier.availableAfter + later.delta,
                           "\(sku): row \(later.sequence) does not follow row \(earlier.sequence)", file: file, line: line)
        }
        for movement in movements {
            XCTAssertNotEqual(movement.delta, 0, file: file, line: line)
            XCTAssertGreaterThanOrEqual(movement.availableAfter, 0, file: file, line: line)
        }
        XCTAssertEqual(movements.last?.availableAfter, current, "\(sku): the last row is not the current level", file: file, line: line)
        XCTAssertEqual(movements.map(\.delta).reduce(0, +), current - first.availableBefore,
                       "\(sku): the deltas do not add up", file: file, line: line)
        if let before = levelsBefore?[sku] {
            XCTAssertEqual(first.availableBefore, before, "\(sku): the level before the first row", file: file, line: line)
        }
    }
    return rows
}
