import Dispatch
import Foundation
import SharedSupport
import XCTest
@testable import ShopAPI

/// What only the PostgreSQL store has to prove: same catalog and search as SQLite, migration
/// races, several services (as several processes would) on one database, cancellation through
/// `PQcancel`. Skipped, with a message, when `SHOP_RPC_TEST_POSTGRES_URI` is not set.
final class PostgreSQLStoreTests: XCTestCase {
    private var database: PostgreSQLTestDatabase!

    override func setUpWithError() throws {
        database = try PostgreSQLTestDatabase()
    }

    override func tearDown() {
        database?.drop()
        super.tearDown()
    }

    // MARK: - Catalog

    func test_seededCatalog_isIdenticalToSQLite_productsAndStock() throws {
        let postgres = try ShopService.open(path: database.uri)
        let sqlite = try ShopService.open(path: ":memory:")
        XCTAssertEqual(try postgres.allProducts(), try sqlite.allProducts())
        let skus = (1...CatalogSeed.productCount).map(CatalogSeed.sku)
        XCTAssertEqual(try postgres.checkInventory(skus: skus, interruption: nil), try sqlite.checkInventory(skus: skus, interruption: nil))
    }

    func test_search_findsTheSameProductsAsSQLiteFullText_inTheSameOrder() throws {
        let postgres = try ShopService.open(path: database.uri)
        let sqlite = try ShopService.open(path: ":memory:")
        for query in ["ESPRESSO", "garden gloves", "Kite", "premium kitchen", "pre", "usb c", "coffee"] {
            let expected = try sqlite.searchItems(query, limit: 200).map(\.sku)
            XCTAssertFalse(expected.isEmpty, query)
            XCTAssertEqual(try postgres.searchItems(query, limit: 200).map(\.sku), expected, query)
        }
    }

    // MARK: - Opening

    func test_open_manyServicesAtOnceOnAnEmptyDatabase_migrateAndSeedOnce() throws {
        let count = 6
        let uri = database.uri
        let services = Locked<[ShopService]>([])
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: count) { _ in
            do {
                let service = try ShopService.open(path: uri, postgresPoolSize: 1)
                services.withLock { $0.append(service) }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
        let opened = services.withLock { $0 }
        XCTAssertEqual(opened.count, count)
        let expected = CatalogSeed.entries().map(\.product)
        for service in opened {
            XCTAssertEqual(try service.allProducts(), expected, "seeded exactly once: no duplicates, nothing missing")
        }
    }

    func test_open_databaseFromBeforeTheOrderFunction_migratesIt_andPlacesOrders() throws {
        // What a database left by the build before migration 3 looks like.
        let admin = try PostgreSQLConnection(uri: database.uri)
        try Self.migrate(admin, toVersion: 2)
        let service = try ShopService.open(path: database.uri)
        XCTAssertEqual(try admin.query("SELECT max(version) FROM shop_schema_version", []) { $0.int(0) }, [PostgreSQLSchema.latestVersion])
        _ = try service.addToCartAndWait("c", "SKU-0005", 2).get()
        let order = try service.placeOrderAndWait("c", key: "k").get()
        XCTAssertEqual(order.lines, [CartLine(sku: "SKU-0005", quantity: 2, unitPriceCents: order.lines.first?.unitPriceCents ?? -1)])
        XCTAssertEqual(try service.order(id: order.orderId, interruption: nil), order)
    }

    /// A process of the build before migration 6 may still be running: its six-argument call of
    /// `shop_place_order` now writes the order's ledger rows too (the old signature wraps the new).
    func test_open_databaseFromVersion5_migratesIt_andTheEarlierOrderCallWritesTheLedger() throws {
        let admin = try PostgreSQLConnection(uri: database.uri)
        try Self.migrate(admin, toVersion: 5)
        let service = try ShopService.open(path: database.uri)
        XCTAssertEqual(try admin.query("SELECT max(version) FROM shop_schema_version", []) { $0.int(0) }, [PostgreSQLSchema.latestVersion])
        let before = try service.available("SKU-0005")
        _ = try service.addToCartAndWait("c", "SKU-0005", 2).get()
        let lines = try admin.query(
            "SELECT r_order_id, r_sku, r_quantity FROM shop_place_order('c', 'k', 'ord_00000000000000aa', '2026-01-01T00:00:00.000Z', 'USD', 'placed')", []
        ) { "\($0.text(0)) \($0.text(1)) \($0.int(2))" }
        XCTAssertEqual(lines, ["ord_00000000000000aa SKU-0005 2"])
        let movements = try service.stockMovements(afterSequence: 0, since: nil, limit: 10, interruption: nil)
        XCTAssertEqual(movements.map { [$0.sku, "\($0.delta)", "\($0.availableAfter)", $0.reason.rawValue, $0.orderId ?? "-"] },
                       [["SKU-0005", "-2", "\(before - 2)", "sale", "ord_00000000000000aa"]])
        XCTAssertNil(movements.first?.actor)
    }

    /// A database from the build before version 7 (no customers), whose cart and order ids may
    /// hold a U+001F: they stay of no customer (as SQLite's `DatabaseFileTests`).
    func test_open_databaseFromVersion6_keysHoldingTheSeparator_stayOfNoCustomer() throws {
        let admin = try PostgreSQLConnection(uri: database.uri)
        try Self.migrate(admin, toVersion: 6)
        try admin.execute("""
            INSERT INTO cart_lines (cart_id, sku, quantity, unit_price_cents) VALUES ('alice' || chr(31) || 'c-1', 'SKU-0002', 1, 100);
            INSERT INTO orders (order_id, cart_id, idempotency_key, total_cents, currency, status, created_at)
                VALUES ('ord_00000000000000bb', 'alice' || chr(31) || 'c-1', 'alice' || chr(31) || 'k', 100, 'USD', 'placed', '2026-01-01T00:00:00.000Z');
            INSERT INTO order_lines (order_seq, line_no, sku, quantity, unit_price_cents)
                SELECT seq, 0, 'SKU-0002', 1, 100 FROM orders WHERE order_id = 'ord_00000000000000bb';
            """)
        let service = try ShopService.open(path: database.uri)
        XCTAssertEqual(try admin.query("SELECT max(version) FROM shop_schema_version", []) { $0.int(0) }, [PostgreSQLSchema.latestVersion])
        let order = try service.order(id: "ord_00000000000000bb", interruption: nil)
        XCTAssertNil(order.customer)
        XCTAssertEqual(order.cartId, "alice\u{1F}c-1")
        XCTAssertEqual(try service.cart(id: "alice\u{1F}c-1", interruption: nil).lines.map(\.sku), ["SKU-0002"])
        XCTAssertThrowsError(try service.order(id: "ord_00000000000000bb", customer: "alice", interruption: nil))
        XCTAssertEqual(try service.listOrders(cartId: nil, customer: "alice", cursor: nil, limit: 10, interruption: nil).items, [])
        XCTAssertEqual(try service.cart(id: "c-1", customer: "alice", interruption: nil).lines, [])
    }

    /// A database from the build before version 8 (no variants): each SKU becomes a product whose
    /// handle is its SKU, with one variant, no options, active, or archived if it was (as
    /// SQLite's `DatabaseFileTests`); listing, search and export go on as before.
    func test_open_databaseFromVersion7_eachSkuBecomesAProductOfOneVariant_archivedStaysArchived() throws {
        let admin = try PostgreSQLConnection(uri: database.uri)
        try Self.migrate(admin, toVersion: 7)
        try admin.execute("UPDATE products SET archived = true WHERE sku = 'SKU-0002'")
        let service = try ShopService.open(path: database.uri)
        XCTAssertEqual(try admin.query("SELECT max(version) FROM shop_schema_version", []) { $0.int(0) }, [PostgreSQLSchema.latestVersion])
        let listed = try service.allProducts()
        XCTAssertEqual(listed.count, CatalogSeed.productCount - 1)
        XCTAssertEqual(listed.map(\.sku), listed.map(\.handle))
        XCTAssertEqual(listed.map(\.sku), listed.map(\.sku).sorted(), "the demo catalog's order, SKU order")
        XCTAssertFalse(listed.contains { $0.sku == "SKU-0002" })
        XCTAssertEqual(try service.catalogProduct(handle: "SKU-0001", interruption: nil).variants.map(\.sku), ["SKU-0001"])
        XCTAssertThrowsError(try service.product(sku: "SKU-0002", interruption: nil))
        XCTAssertEqual(try admin.query("SELECT status FROM products WHERE sku = 'SKU-0002'", []) { $0.text(0) }, ["archived"])
        let espresso = try service.searchItems("espresso", limit: 200)
        XCTAssertFalse(espresso.isEmpty)
        XCTAssertTrue(espresso.allSatisfy { $0.variants.count == 1 && $0.handle == $0.sku })
    }

    /// Makes the empty database what a build whose schema ended at `version` left: its migrations
    /// as they shipped, on the demo catalog.
    private static func migrate(_ connection: PostgreSQLConnection, toVersion version: Int) throws {
        try connection.execute("BEGIN; CREATE TABLE shop_schema_version (version INTEGER NOT NULL)")
        for migration in PostgreSQLSchema.migrations where migration.version <= version {
            try migration.apply(connection, .demoCatalog)
        }
        try connection.run("INSERT INTO shop_schema_version (version) VALUES ($1)", [version])
        try connection.execute("COMMIT")
    }

    func test_open_unknownDatabase_failsWithStorageErrorNamingIt() throws {
        var components = try XCTUnwrap(URLComponents(string: database.uri))
        components.path = "/no_such_database_here"
        XCTAssertThrowsError(try ShopService.open(path: try XCTUnwrap(components.string))) { error in
            guard case let .storage(message)? = error as? ShopError else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("no_such_database_here"), message)
        }
    }

    // MARK: - Several processes on one database

    func test_placeOrder_racingServicesForTheLastUnits_neverOversell() throws {
        let services = try (0..<4).map { _ in try ShopService.open(path: database.uri, postgresPoolSize: 3) }
        let sku = "SKU-0007"
        let stock = try services[0].available(sku)
        let results = try placeConcurrently(count: stock + 12, sku: sku, on: services)
        let placed = results.filter { (try? $0.get()) != nil }.count
        let outOfStock = results.filter {
            if case .failure(.outOfStock) = $0 { return true } else { return false }
        }.count
        XCTAssertEqual(placed, stock, "every unit sold exactly once")
        XCTAssertEqual(outOfStock, 12, "the rest fail OutOfStock, none with another error: \(results.filter { (try? $0.get()) == nil })")
        XCTAssertEqual(try services[0].available(sku), 0)
    }

    func test_placeOrder_sameKeyOnSeveralServicesAtOnce_placesOneOrder() throws {
        let services = try (0..<4).map { _ in try ShopService.open(path: database.uri, postgresPoolSize: 2) }
        let before = try services[0].available("SKU-0004")
        _ = try services[0].addToCartAndWait("shared", "SKU-0004", 2).get()
        let boxes = (0..<8).map { _ in ResultBox<Order>() }
        DispatchQueue.concurrentPerform(iterations: boxes.count) { index in
            services[index % services.count].placeOrder(cartId: "shared", idempotencyKey: "one-key", interruption: nil) {
                boxes[index].record($0)
            }
        }
        let orders = try boxes.map { box -> Order in
            XCTAssertTrue(box.wait())
            return try XCTUnwrap(box.result).get()
        }
        XCTAssertEqual(Set(orders.map(\.orderId)).count, 1, "every retry gets the same order")
        XCTAssertEqual(try services[1].available("SKU-0004"), before - 2, "stock taken once")
        XCTAssertEqual(try services[2].listOrders(cartId: "shared", cursor: nil, limit: 10, interruption: nil).items.count, 1)
    }

    // MARK: - Cancellation

    func test_read_interruptedWhileBlockedOnTheDatabase_isCancelledAndConnectionStaysUsable() throws {
        let service = try ShopService.open(path: database.uri, postgresPoolSize: 1)
        let store = try XCTUnwrap(service.store as? PostgreSQLShopStore)
        let interruption = TestInterruption()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { interruption.interrupt() }
        let started = Date()
        XCTAssertThrowsError(try store.read(interruption: interruption) { transaction in
            // Stands for a slow query: only PQcancel can end it before 20 s.
            try (transaction as! PostgreSQLShopTransaction).connection.execute("SELECT pg_sleep(20)")
        }) { XCTAssertEqual($0 as? ShopError, .interrupted) }
        XCTAssertLessThan(Date().timeIntervalSince(started), 15, "hang guard: the cancel reached the server")
        XCTAssertEqual(try service.product(sku: "SKU-0001", interruption: nil).sku, "SKU-0001", "the pool's only connection is healthy")
    }

    func test_write_interruptedWhileWaitingForARowLock_changesNothing() throws {
        let service = try ShopService.open(path: database.uri, postgresPoolSize: 2)
        _ = try service.addToCartAndWait("c", "SKU-0002", 1).get()
        let before = try service.available("SKU-0002")
        // Another session holds the stock row, so the order blocks inside its UPDATE.
        let blocker = try PostgreSQLConnection(uri: database.uri)
        try blocker.execute("BEGIN; SELECT 1 FROM stock WHERE sku = 'SKU-0002' FOR UPDATE")
        let interruption = TestInterruption()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { interruption.interrupt() }
        XCTAssertEqual(service.placeOrderAndWait("c", key: "k", interruption: interruption).failure, .interrupted)
        try blocker.execute("ROLLBACK")
        XCTAssertEqual(try service.available("SKU-0002"), before)
        XCTAssertEqual(try service.cart(id: "c", interruption: nil).lines.count, 1)
        XCTAssertEqual(try service.listOrders(cartId: nil, cursor: nil, limit: 10, interruption: nil).items, [])
        XCTAssertNotNil(try? service.placeOrderAndWait("c", key: "k").get(), "the same key still works afterwards")
    }

    func test_write_blockedOnARowLockPastItsDeadline_isEndedByStatementTimeout_evenWithoutPQcancel() throws {
        let service = try ShopService.open(path: database.uri, postgresPoolSize: 2)
        _ = try service.addToCartAndWait("c", "SKU-0003", 1).get()
        let before = try service.available("SKU-0003")
        let blocker = try PostgreSQLConnection(uri: database.uri)
        try blocker.execute("BEGIN; SELECT 1 FROM stock WHERE sku = 'SKU-0003' FOR UPDATE")
        defer { try? blocker.execute("ROLLBACK") }
        // A deadline whose interrupt never fires: only the server's statement_timeout can end the
        // wait before the session's 30 s default.
        let interruption = DeadlineOnlyInterruption(deadline: .now() + .milliseconds(300))
        let started = Date()
        let failure = service.placeOrderAndWait("c", key: "k", interruption: interruption).failure
        XCTAssertLessThan(Date().timeIntervalSince(started), 15, "ended by the call's deadline, not the session's 30 s statement_timeout")
        XCTAssertEqual(failure, .interrupted, "the server's cancel, after the deadline, is the call's interruption")
        try blocker.execute("ROLLBACK")
        XCTAssertEqual(try service.available("SKU-0003"), before, "nothing of the write is left")
        XCTAssertEqual(try service.listOrders(cartId: nil, cursor: nil, limit: 10, interruption: nil).items, [])
        XCTAssertEqual(try service.cart(id: "c", interruption: nil).lines.count, 1)
    }
}

/// An interruption known only by its deadline: `isInterrupted` turns true when it passes, but no
/// handler ever runs (as if every `PQcancel` were lost).
private final class DeadlineOnlyInterruption: ShopInterruption {
    let deadline: DispatchTime?

    init(deadline: DispatchTime) {
        self.deadline = deadline
    }

    var isInterrupted: Bool { DispatchTime.now() >= deadline! }

    func addInterruptHandler(_ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void { {} }
}
