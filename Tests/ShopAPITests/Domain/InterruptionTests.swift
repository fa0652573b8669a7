import XCTest
@testable import ShopAPI

/// Stopping work through `ShopInterruption`: the contract part on every store (`forEachStore`),
/// then SQLite's own machinery.
final class InterruptionTests: StoreContractTestCase {
    func test_reads_alreadyInterrupted_throwInterrupted() throws {
        try forEachStore {
            let service: ShopService = self.service
            let interrupted = TestInterruption(interrupted: true)
            let reads: [() throws -> Void] = [
                { _ = try service.listCatalog(cursor: nil, limit: 10, category: nil, interruption: interrupted) },
                { _ = try service.product(sku: "SKU-0001", interruption: interrupted) },
                { _ = try service.searchProducts(ProductSearchRequest(query: "coffee", limit: 10), interruption: interrupted) },
                { _ = try service.checkInventory(skus: ["SKU-0001"], interruption: interrupted) },
                { _ = try service.cart(id: "c", interruption: interrupted) },
                { _ = try service.listOrders(cartId: nil, cursor: nil, limit: 10, interruption: interrupted) },
            ]
            for read in reads {
                XCTAssertThrowsError(try read()) { XCTAssertEqual($0 as? ShopError, .interrupted) }
            }
        }
    }

    func test_writes_alreadyInterrupted_failInterrupted_andChangeNothing() throws {
        try forEachStore {
            let service: ShopService = self.service
            _ = try service.addToCartAndWait("c", "SKU-0001", 1).get()
            let before = try service.available("SKU-0001")
            let interrupted = TestInterruption(interrupted: true)
            XCTAssertEqual(service.addToCartAndWait("c", "SKU-0002", 1, interruption: interrupted).failure, .interrupted)
            XCTAssertEqual(service.placeOrderAndWait("c", key: "k", interruption: interrupted).failure, .interrupted)
            XCTAssertEqual(try service.cart(id: "c", interruption: nil).lines.map(\.sku), ["SKU-0001"])
            XCTAssertEqual(try service.available("SKU-0001"), before)
        }
    }

    func test_read_interruptedBetweenStatements_stopsWithInterrupted() throws {
        try forEachStore {
            let service: ShopService = self.service
            let skus = (1...100).map(CatalogSeed.sku)
            XCTAssertThrowsError(try service.checkInventory(skus: skus, interruption: CountdownInterruption(interruptedFromRead: 5))) {
                XCTAssertEqual($0 as? ShopError, .interrupted)
            }
        }
    }

    func test_read_unregistersItsHandler_soALateInterruptCannotReachTheNextCall() throws {
        try forEachStore {
            let service: ShopService = self.service
            let token = TestInterruption()
            _ = try service.listCatalog(cursor: nil, limit: 10, category: nil, interruption: token)
            XCTAssertEqual(token.registrations, 1)
            XCTAssertEqual(token.activeHandlerCount, 0)
            token.interrupt()
            XCTAssertEqual(try service.listCatalog(cursor: nil, limit: 10, category: nil, interruption: nil).items.count, 10)
        }
    }

    func test_withInterrupts_firingDuringRunningStatement_stopsIt() throws {
        let connection = try SQLiteConnection.open(path: ":memory:", as: .inMemory)
        let token = TestInterruption()
        let finished = Flag()
        // Keeps firing until the statement is over; the statement never ends unless interrupted.
        DispatchQueue.global().async {
            while !finished.isSet {
                token.fireHandlersWithoutMarking()
                usleep(1000)
            }
        }
        defer { finished.set() }
        XCTAssertThrowsError(try connection.withInterrupts(from: token) {
            try connection.query("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n", []) { $0.int(0) }
        }) {
            XCTAssertEqual(ShopError(storeError: $0), .interrupted)
        }
        XCTAssertEqual(token.activeHandlerCount, 0)
        XCTAssertEqual(try connection.query("SELECT 42", []) { $0.int(0) }, [42], "the connection works afterwards")
    }

    func test_connectionPool_waitingCallerInterrupted_stopsWaiting() throws {
        let pool = SQLiteConnectionPool(capacity: 1) { try SQLiteConnection.open(path: ":memory:", as: .inMemory) }
        let token = TestInterruption()
        try pool.withConnection(interruption: nil) { _ in
            token.interrupt()
            XCTAssertThrowsError(try pool.withConnection(interruption: token) { _ in }) {
                XCTAssertEqual($0 as? ShopError, .interrupted)
            }
        }
    }
}

// MARK: - Waiting for a connection

/// Counts how often the pool looks at its interruption, to tell waiting from polling.
private final class CountingInterruption: ShopInterruption, @unchecked Sendable {  // `reads` is guarded by `lock`; `inner` is thread-safe
    let inner = TestInterruption()
    private let lock = NSLock()
    private var count = 0
    var reads: Int { lock.withLock { count } }
    var isInterrupted: Bool {
        lock.withLock { count += 1 }
        return inner.isInterrupted
    }
    func addInterruptHandler(_ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void { inner.addInterruptHandler(action) }
}

final class ConnectionPoolWaitingTests: XCTestCase {
    func test_waitingCaller_sleepsUntilInterrupted_insteadOfPolling() throws {
        let pool = SQLiteConnectionPool(capacity: 1) { try SQLiteConnection.open(path: ":memory:", as: .inMemory) }
        let interruption = CountingInterruption()
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let waiterDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? pool.withConnection(interruption: nil) { _ in
                holding.signal()
                release.wait()
            }
        }
        holding.wait()
        nonisolated(unsafe) var outcome: (any Error)?
        DispatchQueue.global().async {
            do { try pool.withConnection(interruption: interruption) { _ in } } catch { outcome = error }
            waiterDone.signal()
        }
        // Whatever the pacing, a waiter that sleeps on the condition looks at its interruption a
        // bounded number of times; one that polls every 10 ms looks about 20 times in 200 ms.
        let deadline = Date().addingTimeInterval(10)
        while interruption.inner.activeHandlerCount == 0, interruption.reads < 5, Date() < deadline { usleep(1000) }
        usleep(200_000)
        interruption.inner.interrupt()
        XCTAssertEqual(waiterDone.wait(timeout: .now() + 10), .success, "the interruption woke the waiter")
        XCTAssertEqual(outcome as? ShopError, .interrupted)
        XCTAssertLessThanOrEqual(interruption.reads, 3, "the waiter polled its interruption")
        XCTAssertEqual(interruption.inner.activeHandlerCount, 0, "the wake-up handler was unregistered")
        release.signal()
        XCTAssertEqual(try pool.withConnection(interruption: interruption.inner.isInterrupted ? nil : interruption) { _ in 42 }, 42)
    }
}
