import Dispatch
import Foundation
import XCTest
@testable import ShopAPI

/// Several services on one store (as several processes would be: a SQLite file, a PostgreSQL
/// database) placing orders, cancelling orders (each twice, from two services) and adjusting
/// stock, all at once, on the same few SKUs: no level goes negative, every cancelled order is
/// restocked exactly once, and the ledger accounts for every change. (The same with real
/// processes over pipes: `StockContentionProcessTests` in IntegrationTests.)
final class StockContentionTests: XCTestCase {
    private static let skus = ["SKU-0031", "SKU-0032", "SKU-0033"]

    func test_ordersCancelsAndAdjusts_fromFourServicesOnOneSQLiteFile() throws {
        let database = TemporaryDatabase()
        defer { database.remove() }
        try runContention(on: (0..<4).map { _ in try ShopService.open(path: database.path) })
    }

    func test_ordersCancelsAndAdjusts_fromFourServicesOnOnePostgreSQLDatabase() throws {
        let database = try PostgreSQLTestDatabase()
        defer { database.drop() }
        try runContention(on: (0..<4).map { _ in try ShopService.open(path: database.uri, postgresPoolSize: 3) })
    }

    private func runContention(on services: [ShopService]) throws {
        let skus = Self.skus
        let levelsBefore = Dictionary(uniqueKeysWithValues: try skus.map { ($0, try services[0].available($0)) })
        for sku in skus { _ = try services[0].setStockAndWait(sku, to: 30).get() }
        // Orders to cancel, placed beforehand; carts for the orders placed during the run.
        var toCancel: [Order] = []
        for index in 0..<12 {
            let cart = "old-\(index)"
            _ = try services[0].addToCartAndWait(cart, skus[index % 3], 1 + index % 2).get()
            _ = try services[0].addToCartAndWait(cart, skus[(index + 1) % 3], 1).get()
            toCancel.append(try services[0].placeOrderAndWait(cart, key: cart).get())
        }
        for index in 0..<24 {
            let cart = "new-\(index)"
            _ = try services[index % 4].addToCartAndWait(cart, skus[(index + 2) % 3], 1 + index % 3).get()
            _ = try services[index % 4].addToCartAndWait(cart, skus[index % 3], 2).get()
        }

        enum Operation { case place(Int), cancel(Int), adjust(Int) }
        let operations = (0..<24).map(Operation.place) + (0..<24).map(Operation.cancel) + (0..<24).map(Operation.adjust)
        let placed = (0..<24).map { _ in ResultBox<Order>() }
        let cancelled = (0..<24).map { _ in ResultBox<Order>() }
        let adjusted = (0..<24).map { _ in ResultBox<StockLevel>() }
        let orderIds = toCancel.map(\.orderId)
        DispatchQueue.concurrentPerform(iterations: operations.count) { step in
            let service = services[step % services.count]
            switch operations[step] {
            case .place(let index):
                service.placeOrder(cartId: "new-\(index)", idempotencyKey: "new-\(index)", actor: "placer", interruption: nil) { placed[index].record($0) }
            case .cancel(let index):
                // Each order twice, from services two apart.
                service.cancelOrder(id: orderIds[index / 2], reason: nil, actor: "canceller", interruption: nil) { cancelled[index].record($0) }
            case .adjust(let index):
                let delta = index.isMultiple(of: 2) ? -(1 + index % 5) : 1 + index % 3
                service.adjustStock(sku: skus[index % 3], delta: delta, reason: .correction, actor: "adjuster", interruption: nil) {
                    adjusted[index].record($0)
                }
            }
        }
        let placedOrders = try placed.compactMap { box -> Order? in
            XCTAssertTrue(box.wait())
            switch try XCTUnwrap(box.result) {
            case .success(let order): return order
            case .failure(let error):
                guard case .outOfStock = error else { XCTFail("orders fail only OutOfStock: \(error)"); return nil }
                return nil
            }
        }
        var cancels: [String: [Order]] = [:]
        for box in cancelled {
            XCTAssertTrue(box.wait())
            let order = try XCTUnwrap(box.result).get()
            cancels[order.orderId, default: []].append(order)
        }
        XCTAssertEqual(Set(cancels.keys), Set(orderIds))
        for (orderId, both) in cancels {
            XCTAssertEqual(both.count, 2)
            XCTAssertEqual(both.first, both.last, "both cancels of \(orderId) deliver the one cancelled order")
        }
        var adjustDeltas: [Int] = []
        for (index, box) in adjusted.enumerated() {
            XCTAssertTrue(box.wait())
            switch try XCTUnwrap(box.result) {
            case .success: adjustDeltas.append(index.isMultiple(of: 2) ? -(1 + index % 5) : 1 + index % 3)
            case .failure(let error):
                guard case .stockOutOfRange = error else { XCTFail("adjusts fail only StockOutOfRange: \(error)"); continue }
            }
        }

        let rows = try assertLedgerInvariant(services[1], skus: skus, levelsBefore: levelsBefore).values.flatMap { $0 }
        let run = rows.filter { $0.actor != nil && ["placer", "canceller", "adjuster"].contains($0.actor!) }
        XCTAssertEqual(run.filter { $0.reason == .sale }.count, placedOrders.map(\.lines.count).reduce(0, +))
        XCTAssertEqual(Set(run.filter { $0.reason == .sale }.compactMap(\.orderId)), Set(placedOrders.map(\.orderId)))
        for order in toCancel {
            let restocked = run.filter { $0.reason == .cancellation && $0.orderId == order.orderId }
            XCTAssertEqual(restocked.map(\.delta).sorted(), order.lines.map(\.quantity).sorted(), "\(order.orderId) restocked exactly once")
        }
        XCTAssertEqual(run.filter { $0.reason == .correction }.map(\.delta).sorted(), adjustDeltas.sorted())
        for sku in skus {
            let expected = 30
                - toCancel.flatMap(\.lines).filter { $0.sku == sku }.map(\.quantity).reduce(0, +)  // placed before the run
                + run.filter { $0.sku == sku }.map(\.delta).reduce(0, +)
            XCTAssertEqual(try services[2].available(sku), expected, sku)
        }
    }
}
