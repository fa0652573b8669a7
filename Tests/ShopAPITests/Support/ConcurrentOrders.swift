import Foundation
@testable import ShopAPI

// MARK: - Concurrent orders

/// Fills one cart per order with one unit of `sku`, then places all orders at once, spread over
/// `services`; returns every result.
func placeConcurrently(count: Int, sku: String, on services: [ShopService]) throws -> [Result<Order, ShopError>] {
    let run = UUID().uuidString
    for index in 0..<count {
        _ = try services[index % services.count].addToCartAndWait("\(run)-\(index)", sku, 1).get()
    }
    let boxes = (0..<count).map { _ in ResultBox<Order>() }
    DispatchQueue.concurrentPerform(iterations: count) { index in
        services[index % services.count].placeOrder(cartId: "\(run)-\(index)", idempotencyKey: "\(run)-\(index)", interruption: nil) {
            boxes[index].record($0)
        }
    }
    return boxes.map { box in
        guard box.wait(), let result = box.result else { return .failure(.storage("no completion")) }
        return result
    }
}
