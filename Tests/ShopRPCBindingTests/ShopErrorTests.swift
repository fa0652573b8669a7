import XCTest
import RPCServer
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
            (.storeUnreachable(retryInMilliseconds: 50, lastFailure: "refused"), 1008, "StorageError"),
            (.stockOutOfRange(sku: "x", available: 2, delta: -3, max: 9), 1011, "StockOutOfRange"),
            (.stockMismatch(sku: "x", expected: 4, available: 5), 1012, "StockMismatch"),
            (.cartFull(cartId: "c", lines: 100, max: 100), 1013, "CartFull"),
            (.cartTotalOutOfRange(cartId: "c"), 1013, "CartFull"),
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
        XCTAssertEqual(ShopError.stockOutOfRange(sku: "SKU-0001", available: 2, delta: -5, max: 1_000_000_000).message,
                       "SKU-0001 has 2 available: a change of -5 would leave -3, outside 0…1000000000; nothing was changed")
        XCTAssertEqual(ShopError.stockMismatch(sku: "SKU-0001", expected: 5, available: 7).message,
                       "SKU-0001 has 7 available, not the expected 5; nothing was changed")
    }

    /// A rejected upsert is the params' fault: -32602, naming the first product's field, with
    /// every error listed by product index.
    func test_invalidProducts_isInvalidParams_namingTheFirstField_andListingEachError() {
        let error = ShopError.invalidProducts(errors: [
            CatalogFileError(line: 3, field: "priceCents", message: "must be an integer"),
            CatalogFileError(line: 5, field: "line", message: "not a JSON object"),
        ], more: 2)
        XCTAssertEqual(error.code, -32602)
        XCTAssertEqual(error.rpcError.code, .invalidParams)
        XCTAssertEqual(error.message, "Invalid params: 'products[2].priceCents': must be an integer (and 3 more errors, in data.errors)")
        XCTAssertEqual(error.rpcError.data, [
            "type": "InvalidParams",
            "detail": "'products[2].priceCents': must be an integer (and 3 more errors, in data.errors)",
            "field": "products[2].priceCents",
            "errors": [
                ["index": 2, "field": "products[2].priceCents", "message": "must be an integer"],
                ["index": 4, "field": "products[4]", "message": "not a JSON object"],
            ],
            "more": 2,
        ])
    }

    func test_stockErrors_carryTheirValuesInData() {
        XCTAssertEqual(ShopError.stockOutOfRange(sku: "A", available: 2, delta: -5, max: 9).rpcError.data,
                       ["type": "StockOutOfRange", "sku": "A", "available": 2, "delta": -5, "max": 9])
        XCTAssertEqual(ShopError.stockMismatch(sku: "A", expected: 5, available: 7).rpcError.data,
                       ["type": "StockMismatch", "sku": "A", "expected": 5, "available": 7])
    }

    /// The store's reason names its tables and statements: the client gets the same words whatever
    /// it was, and, when the database cannot be reached, when the next attempt is.
    func test_storageErrors_giveTheClientStableWords_neverTheStoresReason() {
        let error = ShopError.storage("no such table: orders (SQLite code 1)").rpcError
        XCTAssertEqual(error.code, RPCErrorCode(1008))
        XCTAssertEqual(error.message, "The store could not complete the operation")
        XCTAssertEqual(error.data, ["type": "StorageError", "detail": "the store failed; the server's log has the reason"])
        XCTAssertEqual(ShopError.storage("disk I/O error").rpcError.message, error.message)

        let unreachable = ShopError.storeUnreachable(retryInMilliseconds: 400, lastFailure: "connection to server at \"db.internal\" failed").rpcError
        XCTAssertEqual(unreachable.code, RPCErrorCode(1008))
        XCTAssertEqual(unreachable.data, [
            "type": "StorageError", "detail": "the database is unreachable; the next reconnect attempt is in 400 ms", "retryAfterMs": 400,
        ])
        XCTAssertFalse(unreachable.message.contains("db.internal"), unreachable.message)
    }

    func test_cartFull_carriesTheLimit_orTheTotalOutOfRange_inData() {
        XCTAssertEqual(ShopError.cartFull(cartId: "c", lines: 100, max: 100).rpcError.data,
                       ["type": "CartFull", "cartId": "c", "lines": 100, "max": 100])
        XCTAssertEqual(ShopError.cartTotalOutOfRange(cartId: "old").rpcError.data,
                       ["type": "CartFull", "cartId": "old", "max": 100, "totalOutOfRange": true])
    }

    func test_stockOutOfRange_messageOfAnUnrepresentableLevel_isText_notATrap() {
        XCTAssertTrue(ShopError.stockOutOfRange(sku: "A", available: 5, delta: .max, max: 9).message.contains("a level no integer can hold"))
        XCTAssertTrue(ShopError.stockOutOfRange(sku: "A", available: 5, delta: .min, max: 9).message.contains("would leave \(Int.min + 5)"))
    }

    func test_pageCursor_roundTrips_andRejectsOtherKindsAndGarbage() throws {
        let cursor = PageCursor.catalog(afterSeq: 42)
        XCTAssertTrue(cursor.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        XCTAssertEqual(try PageCursor.catalogPosition(cursor), 42)
        XCTAssertEqual(try PageCursor.ordersPosition(PageCursor.orders(beforeSequence: 77)), 77)
        XCTAssertThrowsError(try PageCursor.ordersPosition(cursor))
        XCTAssertThrowsError(try PageCursor.catalogPosition("===="))
        XCTAssertThrowsError(try PageCursor.ordersPosition(PageCursor.catalog(afterSeq: -1)))
    }
}
