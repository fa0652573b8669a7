import XCTest
@testable import ShopRPCBinding
@testable import ShopAPI

/// The wire shape of `ShopError` and of cursors.
final class ShopErrorTests: XCTestCase {
    func test_codesAndTypes_areStableAndOutsideJSONRPCReservedRange() {
        let errors: [(ShopError, Int, String)] = [
            (.notFound(entity: "product", id: "x"), 1001, "NotFound"),
            (.outOfStock(sku: "x", requested: 5, available: 2), 1002, "OutOfStock"),
            (.invalidQuantity(sku: "x", quantity: 0, max: 999), 1003, "InvalidQuantity"),
            (.cartEmpty(cartId: "c"), 1004, "CartEmpty"),
            (.idempotencyConflict(key: "k", cartId: "c"), 1005, "IdempotencyConflict"),
            (.invalidCursor("z"), 1006, "InvalidCursor"),
            (.interrupted, 1007, "Interrupted"),
            (.storage("disk"), 1008, "StorageError"),
        ]
        for (error, code, type) in errors {
            XCTAssertEqual(error.code, code)
            XCTAssertEqual(error.type, type)
            XCTAssertFalse((-32768...(-32000)).contains(error.code))
            XCTAssertFalse(error.message.isEmpty)
        }
    }

    func test_messages_areHumanReadable() {
        XCTAssertEqual(ShopError.outOfStock(sku: "SKU-0001", requested: 5, available: 2).message, "Only 2 of SKU-0001 available, 5 requested")
        XCTAssertEqual(ShopError.notFound(entity: "product", id: "SKU-9").message, "Unknown product SKU-9")
        XCTAssertLessThan(ShopError.notFound(entity: "cart", id: String(repeating: "x", count: 10_000)).message.count, 100)
    }

    func test_pageCursor_roundTrips_andRejectsOtherKindsAndGarbage() throws {
        let cursor = PageCursor.catalog(afterSku: "SKU-0042")
        XCTAssertTrue(cursor.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        XCTAssertEqual(try PageCursor.catalogPosition(cursor), "SKU-0042")
        XCTAssertEqual(try PageCursor.ordersPosition(PageCursor.orders(beforeSequence: 77)), 77)
        XCTAssertThrowsError(try PageCursor.ordersPosition(cursor))
        XCTAssertThrowsError(try PageCursor.catalogPosition("===="))
        XCTAssertThrowsError(try PageCursor.ordersPosition(PageCursor.catalog(afterSku: "-1")))
    }
}
