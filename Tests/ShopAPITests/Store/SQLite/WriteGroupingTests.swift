import XCTest
@testable import ShopAPI

/// Concurrency of writes: grouping, no overselling, completion delivery.
final class WriteGroupingTests: XCTestCase {
    func test_placeOrder_fortyConcurrentOrdersForTenUnits_exactlyTenSucceed_neverOversells() throws {
        let service = try ShopService.open(path: ":memory:")
        try service.drainStock(of: "SKU-0007", leaving: 10)
        let results = try placeConcurrently(count: 40, sku: "SKU-0007", on: [service])
        XCTAssertEqual(results.filter { (try? $0.get()) != nil }.count, 10)
        for failure in results.compactMap(\.failure) {
            guard case let .outOfStock(sku, requested, available) = failure else { return XCTFail("\(failure)") }
            XCTAssertEqual(sku, "SKU-0007")
            XCTAssertEqual(requested, 1)
            XCTAssertEqual(available, 0)
        }
        XCTAssertEqual(try service.available("SKU-0007"), 0)
    }

    func test_writes_submittedWhileWriterIsBusy_shareOneTransaction() throws {
        let service = try ShopService.open(path: ":memory:")
        let before = service.stats
        let gate = GateInterruption()
        let group = DispatchGroup()
        group.enter()
        service.addToCart(cartId: "held", sku: "SKU-0001", quantity: 1, interruption: gate) { _ in group.leave() }
        XCTAssertTrue(gate.waitUntilEntered(), "the writer started the first group")
        for index in 0..<50 {
            group.enter()
            service.addToCart(cartId: "c\(index)", sku: "SKU-0001", quantity: 1, interruption: nil) { result in
                XCTAssertNotNil(try? result.get())
                group.leave()
            }
        }
        gate.open()
        XCTAssertEqual(group.wait(timeout: .now() + 10), .success)
        let stats = service.stats
        XCTAssertEqual(stats.operations - before.operations, 51)
        XCTAssertEqual(stats.transactions - before.transactions, 2, "one group for the held write, one for the other fifty")
    }

    func test_group_oneFailingOperation_rollsBackOnlyItself() throws {
        let service = try ShopService.open(path: ":memory:")
        _ = try service.addToCartAndWait("good", "SKU-0001", 1).get()
        _ = try service.addToCartAndWait("bad", "SKU-0013", 1).get()
        let gate = GateInterruption()
        let held = ResultBox<Cart>()
        service.addToCart(cartId: "held", sku: "SKU-0001", quantity: 1, interruption: gate) { held.record($0) }
        XCTAssertTrue(gate.waitUntilEntered())
        let good = ResultBox<Order>(), bad = ResultBox<Order>(), alsoGood = ResultBox<Cart>()
        service.placeOrder(cartId: "good", idempotencyKey: "g", interruption: nil) { good.record($0) }
        service.placeOrder(cartId: "bad", idempotencyKey: "b", interruption: nil) { bad.record($0) }
        service.addToCart(cartId: "after", sku: "SKU-0002", quantity: 2, interruption: nil) { alsoGood.record($0) }
        gate.open()
        XCTAssertTrue(held.wait() && good.wait() && bad.wait() && alsoGood.wait())
        XCTAssertNotNil(try good.result?.get())
        XCTAssertEqual(bad.result?.failure, .outOfStock(sku: "SKU-0013", requested: 1, available: 0))
        XCTAssertEqual(try service.cart(id: "after", interruption: nil).lines.first?.quantity, 2)
        XCTAssertEqual(try service.cart(id: "bad", interruption: nil).lines.count, 1)
        XCTAssertEqual(service.stats.transactions, 4, "2 setup writes, the held group, one shared group")
    }

    func test_completions_runOnTheGivenCallbackQueue_forSuccessAndEveryFailurePath() throws {
        let service = try ShopService.open(path: ":memory:")
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "test.callbacks")
        queue.setSpecific(key: key, value: "callbacks")
        let cases: [(@escaping @Sendable (Result<Cart, ShopError>) -> Void) -> Void] = [
            { service.addToCart(cartId: "c", sku: "SKU-0001", quantity: 1, interruption: nil, callbackQueue: queue, completion: $0) },
            { service.addToCart(cartId: "c", sku: "SKU-0001", quantity: 0, interruption: nil, callbackQueue: queue, completion: $0) },
            { service.addToCart(cartId: "c", sku: "nope", quantity: 1, interruption: nil, callbackQueue: queue, completion: $0) },
            { service.addToCart(cartId: "c", sku: "SKU-0001", quantity: 1, interruption: TestInterruption(interrupted: true), callbackQueue: queue, completion: $0) },
            { service.removeFromCart(cartId: "c", sku: "SKU-0001", interruption: nil, callbackQueue: queue, completion: $0) },
            { service.clearCart(cartId: "c", interruption: nil, callbackQueue: queue, completion: $0) },
            { done in service.placeOrder(cartId: "empty", idempotencyKey: "k", interruption: nil, callbackQueue: queue) { _ in done(.failure(.interrupted)) } },
        ]
        for (index, start) in cases.enumerated() {
            let ranOnQueue = waitForResult { (done: @escaping @Sendable (Result<Bool, ShopError>) -> Void) in
                start { _ in done(.success(DispatchQueue.getSpecific(key: key) == "callbacks")) }
            }
            XCTAssertEqual(ranOnQueue, .success(true), "case \(index)")
        }
    }

    func test_manyConcurrentWrites_eachCompletionCalledExactlyOnce() throws {
        let service = try ShopService.open(path: ":memory:")
        let counter = CallCounter(size: 200)
        let group = DispatchGroup()
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            group.enter()
            service.addToCart(cartId: "c\(index % 10)", sku: CatalogSeed.sku(index % 20 + 1), quantity: 1, interruption: nil) { _ in
                counter.increment(index)
                group.leave()
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(counter.counts, Array(repeating: 1, count: 200))
        XCTAssertEqual(service.stats.operations, 200)
        let total = try (0..<10).map { try service.cart(id: "c\($0)", interruption: nil).lines.map(\.quantity).reduce(0, +) }.reduce(0, +)
        XCTAssertEqual(total, 200)
    }
}
