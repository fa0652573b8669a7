import CSQLite
import XCTest
@testable import ShopAPI

/// Behaviour that needs a real database file: restarts, several instances, migrations.
final class DatabaseFileTests: XCTestCase {
    private var database: TemporaryDatabase!

    override func setUp() {
        database = TemporaryDatabase()
    }

    override func tearDown() {
        database.remove()
    }

    func test_placeOrder_sameIdempotencyKeyAfterReopening_returnsSameOrderWithoutSecondDecrement() throws {
        let original: Order
        let stockAfterOrder: Int
        do {
            let service = try ShopService.open(path: database.path)
            _ = try service.addToCartAndWait("c1", "SKU-0009", 3).get()
            original = try service.placeOrderAndWait("c1", key: "retry-me").get()
            stockAfterOrder = try service.available("SKU-0009")
        }
        let reopened = try ShopService.open(path: database.path)
        _ = try reopened.addToCartAndWait("c1", "SKU-0009", 1).get()
        XCTAssertEqual(try reopened.placeOrderAndWait("c1", key: "retry-me").get(), original)
        XCTAssertEqual(try reopened.available("SKU-0009"), stockAfterOrder)
        XCTAssertEqual(try reopened.order(id: original.orderId, interruption: nil), original)
        XCTAssertEqual(reopened.placeOrderAndWait("c2", key: "retry-me").failure, .idempotencyConflict(key: "retry-me", cartId: "c2"))
    }

    func test_twoServicesOnOneFile_concurrentOrders_neverOversell() throws {
        let first = try ShopService.open(path: database.path)
        let second = try ShopService.open(path: database.path)
        try first.drainStock(of: "SKU-0011", leaving: 10)
        XCTAssertEqual(try second.available("SKU-0011"), 10, "the second instance sees the first one's commit")
        let results = try placeConcurrently(count: 40, sku: "SKU-0011", on: [first, second])
        XCTAssertEqual(results.filter { (try? $0.get()) != nil }.count, 10)
        XCTAssertEqual(results.compactMap(\.failure).filter { if case .outOfStock = $0 { true } else { false } }.count, 30)
        XCTAssertEqual(try first.available("SKU-0011"), 0)
        XCTAssertEqual(try second.available("SKU-0011"), 0)
        XCTAssertEqual(try first.listOrders(cartId: nil, cursor: nil, limit: 200, interruption: nil).items.count, 11)
    }

    func test_twoServicesOnOneFile_sameKeyPlacedFromBoth_createsOneOrder() throws {
        let first = try ShopService.open(path: database.path)
        let second = try ShopService.open(path: database.path)
        _ = try first.addToCartAndWait("shared", "SKU-0010", 1).get()
        let before = try first.available("SKU-0010")
        let a = ResultBox<Order>(), b = ResultBox<Order>()
        first.placeOrder(cartId: "shared", idempotencyKey: "once", interruption: nil) { a.record($0) }
        second.placeOrder(cartId: "shared", idempotencyKey: "once", interruption: nil) { b.record($0) }
        XCTAssertTrue(a.wait() && b.wait())
        XCTAssertEqual(try a.result?.get(), try b.result?.get())
        XCTAssertEqual(try first.available("SKU-0010"), before - 1)
    }

    func test_open_createsMissingDirectories_setsWALAndSchemaVersion() throws {
        _ = try ShopService.open(path: database.path)
        XCTAssertTrue(FileManager.default.fileExists(atPath: database.path))
        let connection = try SQLiteConnection(path: database.path, flags: SQLITE_OPEN_READONLY)
        XCTAssertEqual(try connection.query("PRAGMA journal_mode", []) { $0.text(0) }, ["wal"])
        XCTAssertEqual(try connection.query("PRAGMA user_version", []) { $0.int(0) }, [SQLiteSchema.latestVersion])
    }

    func test_writerConnection_usesWALWithFullSynchronous_soCommittedOrdersSurviveAKill() throws {
        _ = try ShopService.open(path: database.path)
        let writer = try SQLiteConnection.open(path: database.path, as: .writer)
        XCTAssertEqual(try writer.query("PRAGMA journal_mode", []) { $0.text(0) }, ["wal"])
        XCTAssertEqual(try writer.query("PRAGMA synchronous", []) { $0.int(0) }, [2], "2 = FULL")
        XCTAssertEqual(try writer.query("PRAGMA busy_timeout", []) { $0.int(0) }, [5000])
    }

    func test_open_databaseFromNewerBuild_failsWithStorageError() throws {
        _ = try ShopService.open(path: database.path)
        let connection = try SQLiteConnection(path: database.path, flags: SQLITE_OPEN_READWRITE)
        try connection.execute("PRAGMA user_version = 99")
        XCTAssertThrowsError(try ShopService.open(path: database.path)) { error in
            guard case let .storage(message)? = error as? ShopError else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("newer"), message)
        }
    }

    /// A file from the build before version 4 (no ledger, no cancellation): its orders survive the
    /// migration, placed, and can be cancelled; the ledger starts with the first change after it.
    func test_open_fileFromVersion3_migratesIt_keepingOrders_andCancelsThem() throws {
        let placed: Order
        do {
            let service = try ShopService.open(path: database.path)
            _ = try service.addToCartAndWait("c1", "SKU-0009", 3).get()
            placed = try service.placeOrderAndWait("c1", key: "k").get()
        }
        let connection = try SQLiteConnection(path: database.path, flags: SQLITE_OPEN_READWRITE)
        try connection.execute("""
            DROP TABLE stock_ledger;
            ALTER TABLE orders DROP COLUMN cancelled_at;
            ALTER TABLE orders DROP COLUMN cancel_reason;
            PRAGMA user_version = 3;
            """)
        let service = try ShopService.open(path: database.path)
        XCTAssertEqual(try connection.query("PRAGMA user_version", []) { $0.int(0) }, [SQLiteSchema.latestVersion])
        XCTAssertEqual(try service.order(id: placed.orderId, interruption: nil), placed)
        XCTAssertEqual(try service.ledger(), [])
        let level = try service.available("SKU-0009")
        let cancelled = try service.cancelOrderAndWait(placed.orderId).get()
        XCTAssertEqual(cancelled.status, "cancelled")
        XCTAssertEqual(try service.available("SKU-0009"), level + 3)
        try assertLedgerInvariant(service, skus: ["SKU-0009"], levelsBefore: ["SKU-0009": level])
    }

    /// A file from the build before version 5 (no customers), whose cart and order ids may hold a
    /// U+001F: they stay of no customer, so no customer's session sees them, and a session
    /// without a customer still finds them under the ids it gave.
    func test_open_fileFromVersion4_keysHoldingTheSeparator_stayOfNoCustomer() throws {
        let cartId = "alice\u{1F}c-1"
        let placed: Order
        do {
            let service = try ShopService.open(path: database.path)
            _ = try service.addToCartAndWait(cartId, "SKU-0009", 3).get()
            placed = try service.placeOrderAndWait(cartId, key: "alice\u{1F}k").get()
            _ = try service.addToCartAndWait(cartId, "SKU-0002", 1).get()
        }
        XCTAssertNil(placed.customer)
        XCTAssertEqual(placed.cartId, cartId)
        // As an earlier build stored them: the keys as the client gave them.
        let connection = try SQLiteConnection(path: database.path, flags: SQLITE_OPEN_READWRITE)
        try connection.execute("""
            UPDATE cart_lines SET cart_id = substr(cart_id, 2);
            UPDATE orders SET cart_id = substr(cart_id, 2), idempotency_key = substr(idempotency_key, 2);
            PRAGMA user_version = 4;
            """)
        XCTAssertEqual(try connection.query("SELECT cart_id FROM orders", []) { $0.text(0) }, [cartId])
        let service = try ShopService.open(path: database.path)
        XCTAssertEqual(try connection.query("PRAGMA user_version", []) { $0.int(0) }, [SQLiteSchema.latestVersion])

        XCTAssertEqual(try service.order(id: placed.orderId, interruption: nil), placed)
        XCTAssertEqual(try service.cart(id: cartId, interruption: nil).lines.map(\.sku), ["SKU-0002"])
        XCTAssertEqual(try service.placeOrderAndWait(cartId, key: "alice\u{1F}k").get(), placed, "its key still answers its order")
        XCTAssertThrowsError(try service.order(id: placed.orderId, customer: "alice", interruption: nil))
        XCTAssertEqual(try service.listOrders(cartId: nil, customer: "alice", cursor: nil, limit: 10, interruption: nil).items, [])
        XCTAssertEqual(try service.cart(id: "c-1", customer: "alice", interruption: nil).lines, [])
    }

    func test_open_unwritableLocation_failsWithStorageError() {
        XCTAssertThrowsError(try ShopService.open(path: "/proc/shop-rpc-test/shop.sqlite")) {
            guard case .storage? = $0 as? ShopError else { return XCTFail("\($0)") }
        }
    }

    func test_defaultDatabasePath_endsInShopRpcDirectory() {
        XCTAssertTrue(ShopService.defaultDatabasePath.hasSuffix("/shop-rpc/shop.sqlite"))
        XCTAssertTrue(ShopService.defaultDatabasePath.hasPrefix("/"))
    }
}
