import XCTest
@testable import ShopAPI

/// `admin.stock.adjust` and `admin.stock.set`: deltas with reasons, absolute levels with
/// compare-and-set, and the errors that change nothing.
final class StockAdjustmentTests: StoreContractTestCase {

    // MARK: - Adjust

    func test_adjustStock_addsAndTakes_andDeliversTheNewLevel() throws {
        try forEachStore {
            let before = try service.available("SKU-0003")
            XCTAssertEqual(try service.adjustStockAndWait("SKU-0003", by: 25, .received).get(), StockLevel(sku: "SKU-0003", available: before + 25))
            XCTAssertEqual(try service.adjustStockAndWait("SKU-0003", by: -5, .damaged).get(), StockLevel(sku: "SKU-0003", available: before + 20))
            XCTAssertEqual(try service.available("SKU-0003"), before + 20)
        }
    }

    func test_adjustStock_toExactlyZero_isAllowed() throws {
        try forEachStore {
            let before = try service.available("SKU-0003")
            XCTAssertEqual(try service.adjustStockAndWait("SKU-0003", by: -before, .correction).get().available, 0)
        }
    }

    func test_adjustStock_belowZero_failsStockOutOfRange_andChangesNothing() throws {
        try forEachStore {
            try service.drainStock(of: "SKU-0003", leaving: 4)
            let rows = try service.ledger().count
            XCTAssertEqual(service.adjustStockAndWait("SKU-0003", by: -5, .damaged).failure,
                           .stockOutOfRange(sku: "SKU-0003", available: 4, delta: -5, max: ShopLimits.maxStock))
            XCTAssertEqual(try service.available("SKU-0003"), 4)
            XCTAssertEqual(try service.ledger().count, rows, "no ledger row for a refused adjust")
        }
    }

    /// The library's own check, beside the binding's: Int.min and Int.max are refused, not trapped
    /// on (`abs(Int.min)` and `level + Int.max` cannot be represented).
    func test_adjustStock_deltaAtTheEndsOfInt_failsStockOutOfRange_notATrap() throws {
        try forEachStore {
            let before = try service.available("SKU-0003")
            for delta in [Int.min, Int.min + 1, Int.max] {
                XCTAssertEqual(service.adjustStockAndWait("SKU-0003", by: delta, .other).failure,
                               .stockOutOfRange(sku: "SKU-0003", available: before, delta: delta, max: ShopLimits.maxStock))
            }
            XCTAssertEqual(try service.available("SKU-0003"), before)
        }
    }

    func test_setStock_availableAtTheEndsOfInt_failsStockOutOfRange_withTheDeltaSaturated() throws {
        try forEachStore {
            let before = try service.available("SKU-0003")
            XCTAssertEqual(service.setStockAndWait("SKU-0003", to: .min).failure,
                           .stockOutOfRange(sku: "SKU-0003", available: before, delta: .min, max: ShopLimits.maxStock))
            XCTAssertEqual(service.setStockAndWait("SKU-0003", to: .max).failure,
                           .stockOutOfRange(sku: "SKU-0003", available: before, delta: .max - before, max: ShopLimits.maxStock))
            XCTAssertEqual(try service.available("SKU-0003"), before)
        }
    }

    func test_adjustStock_aboveTheMaximum_failsStockOutOfRange() throws {
        try forEachStore {
            let before = try service.available("SKU-0003")
            let delta = ShopLimits.maxStock - before + 1
            XCTAssertEqual(service.adjustStockAndWait("SKU-0003", by: delta).failure,
                           .stockOutOfRange(sku: "SKU-0003", available: before, delta: delta, max: ShopLimits.maxStock))
            XCTAssertEqual(try service.adjustStockAndWait("SKU-0003", by: delta - 1).get().available, ShopLimits.maxStock)
        }
    }

    func test_adjustStock_unknownSku_failsNotFound() throws {
        try forEachStore {
            XCTAssertEqual(service.adjustStockAndWait("SKU-9999", by: 1).failure, .notFound(entity: "product", id: "SKU-9999"))
            XCTAssertEqual(try service.ledger(), [])
        }
    }

    // MARK: - Set

    func test_setStock_withoutExpected_putsTheLevel() throws {
        try forEachStore {
            XCTAssertEqual(try service.setStockAndWait("SKU-0003", to: 17).get(), StockLevel(sku: "SKU-0003", available: 17))
            XCTAssertEqual(try service.available("SKU-0003"), 17)
            XCTAssertEqual(try service.setStockAndWait("SKU-0003", to: 0).get().available, 0)
            XCTAssertEqual(try service.available("SKU-0003"), 0)
        }
    }

    func test_setStock_expectedMatches_putsTheLevel() throws {
        try forEachStore {
            let before = try service.available("SKU-0003")
            XCTAssertEqual(try service.setStockAndWait("SKU-0003", to: before + 3, expected: before).get().available, before + 3)
            XCTAssertEqual(try service.available("SKU-0003"), before + 3)
        }
    }

    /// Compare-and-set: the level moved since the caller read it, so the set is refused and the
    /// caller learns the level it found.
    func test_setStock_expectedDiffers_failsStockMismatch_andChangesNothing() throws {
        try forEachStore {
            let seen = try service.available("SKU-0003")
            _ = try service.adjustStockAndWait("SKU-0003", by: -1, .damaged).get()
            let rows = try service.ledger().count
            XCTAssertEqual(service.setStockAndWait("SKU-0003", to: 50, expected: seen).failure,
                           .stockMismatch(sku: "SKU-0003", expected: seen, available: seen - 1))
            XCTAssertEqual(try service.available("SKU-0003"), seen - 1)
            XCTAssertEqual(try service.ledger().count, rows)
            XCTAssertEqual(try service.setStockAndWait("SKU-0003", to: 50, expected: seen - 1).get().available, 50, "a retry with the level found")
        }
    }

    /// Of sets racing with the same `expected`, exactly one wins; the others see its level.
    func test_setStock_racingCompareAndSets_exactlyOneWins() throws {
        try forEachStore {
            let seen = try service.available("SKU-0003")
            let boxes = (0..<6).map { _ in ResultBox<StockLevel>() }
            let service: ShopService = self.service
            DispatchQueue.concurrentPerform(iterations: boxes.count) { index in
                service.setStock(sku: "SKU-0003", available: seen + 1 + index, expected: seen, interruption: nil) { boxes[index].record($0) }
            }
            let results = boxes.compactMap { box in box.wait() ? box.result : nil }
            XCTAssertEqual(results.count, boxes.count)
            let winners = results.compactMap { try? $0.get() }
            XCTAssertEqual(winners.count, 1, "\(results)")
            let level = try XCTUnwrap(winners.first).available
            for failure in results.compactMap(\.failure) {
                XCTAssertEqual(failure, .stockMismatch(sku: "SKU-0003", expected: seen, available: level))
            }
            XCTAssertEqual(try service.available("SKU-0003"), level)
        }
    }

    func test_setStock_unknownSku_failsNotFound() throws {
        try forEachStore {
            XCTAssertEqual(service.setStockAndWait("SKU-9999", to: 1).failure, .notFound(entity: "product", id: "SKU-9999"))
            XCTAssertEqual(service.setStockAndWait("SKU-9999", to: 1, expected: 0).failure, .notFound(entity: "product", id: "SKU-9999"))
        }
    }

    func test_setStock_outsideTheRange_failsStockOutOfRange() throws {
        try forEachStore {
            let before = try service.available("SKU-0003")
            XCTAssertEqual(service.setStockAndWait("SKU-0003", to: -1).failure,
                           .stockOutOfRange(sku: "SKU-0003", available: before, delta: -1 - before, max: ShopLimits.maxStock))
            XCTAssertEqual(service.setStockAndWait("SKU-0003", to: ShopLimits.maxStock + 1).failure,
                           .stockOutOfRange(sku: "SKU-0003", available: before, delta: ShopLimits.maxStock + 1 - before, max: ShopLimits.maxStock))
            XCTAssertEqual(try service.available("SKU-0003"), before)
        }
    }
}
