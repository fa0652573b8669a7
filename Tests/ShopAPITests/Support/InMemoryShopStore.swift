import Dispatch
import Foundation
@testable import ShopAPI

// MARK: - InMemoryShopStore

/// A fake `ShopStore` on dictionaries, so the service's rules can be tested without SQLite.
/// Thread-safe: one lock; a write works on a copy of the state and keeps it only on success.
final class InMemoryShopStore: ShopStore, @unchecked Sendable {
    struct State {
        var products: [String: Product] = [:]
        var stock: [String: Int] = [:]
        var carts: [String: [CartLine]] = [:]
        var orders: [StoredOrder] = []
        var keys: [String: (orderId: String, cartId: String)] = [:]
    }

    private let lock = NSLock()
    private var state: State
    private var counts = (transactions: 0, operations: 0)

    init(products: [(Product, stock: Int)]) {
        var state = State()
        for (product, stock) in products {
            state.products[product.sku] = product
            state.stock[product.sku] = stock
        }
        self.state = state
    }

    func read<T>(interruption: (any ShopInterruption)?, _ body: (any ShopReadTransaction) throws -> T) throws(ShopError) -> T {
        if interruption?.isInterrupted == true { throw .interrupted }
        do {
            return try body(Transaction(state: lock.withLock { state }))
        } catch {
            throw ShopError(storeError: error)
        }
    }

    func write<T: Sendable>(
        interruption: (any ShopInterruption)?,
        callbackQueue: DispatchQueue,
        _ body: @escaping @Sendable (any ShopWriteTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, ShopError>) -> Void
    ) {
        perform(interruption: interruption, callbackQueue: callbackQueue, body, completion: completion)
    }

    func placeOrder(
        _ placement: OrderPlacement,
        interruption: (any ShopInterruption)?,
        callbackQueue: DispatchQueue,
        completion: @escaping @Sendable (Result<Order, ShopError>) -> Void
    ) {
        perform(interruption: interruption, callbackQueue: callbackQueue, { try placement.run(in: $0) }, completion: completion)
    }

    private func perform<T: Sendable>(
        interruption: (any ShopInterruption)?,
        callbackQueue: DispatchQueue,
        _ body: @escaping @Sendable (any ShopOrderTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, ShopError>) -> Void
    ) {
        let result: Result<T, ShopError> = lock.withLock {
            if interruption?.isInterrupted == true { return .failure(.interrupted) }
            let transaction = Transaction(state: state)
            counts.transactions += 1
            counts.operations += 1
            do {
                let value = try body(transaction)
                state = transaction.state
                return .success(value)
            } catch {
                return .failure(ShopError(storeError: error))
            }
        }
        callbackQueue.async { completion(result) }
    }

    var stats: (transactions: Int, operations: Int) { lock.withLock { counts } }

    var readConcurrency: Int { 1 }

    // MARK: - Transaction

    private final class Transaction: ShopOrderTransaction {
        var state: State

        init(state: State) {
            self.state = state
        }

        func products(afterSku: String?, category: String?, limit: Int) -> [Product] {
            Array(state.products.values
                .filter { $0.sku > (afterSku ?? "") && (category == nil || $0.category == category) }
                .sorted { $0.sku < $1.sku }
                .prefix(limit))
        }

        func product(sku: String) -> Product? { state.products[sku] }

        func searchProducts(terms: [String], limit: Int) -> [Product] {
            Array(state.products.values
                .filter { product in terms.allSatisfy { "\(product.name) \(product.description) \(product.category)".lowercased().contains($0) } }
                .sorted { $0.sku < $1.sku }
                .prefix(limit))
        }

        func available(sku: String) -> Int? { state.stock[sku] }
        func cartLines(cartId: String) -> [CartLine] { state.carts[cartId] ?? [] }
        func order(id: String) -> Order? { state.orders.first { $0.order.orderId == id }?.order }

        func orders(cartId: String?, beforeSequence: Int64?, limit: Int) -> [StoredOrder] {
            Array(state.orders.reversed()
                .filter { $0.sequence < (beforeSequence ?? .max) && (cartId == nil || $0.order.cartId == cartId) }
                .prefix(limit))
        }

        func orderReference(idempotencyKey: String) -> (orderId: String, cartId: String)? { state.keys[idempotencyKey] }

        func lockCart(cartId: String) {}  // writes run one at a time under the store's lock

        func setCartLine(cartId: String, line: CartLine) {
            var lines = state.carts[cartId] ?? []
            if let index = lines.firstIndex(where: { $0.sku == line.sku }) { lines[index] = line } else { lines.append(line) }
            state.carts[cartId] = lines
        }

        func removeCartLine(cartId: String, sku: String) { state.carts[cartId]?.removeAll { $0.sku == sku } }
        func clearCart(cartId: String) { state.carts[cartId] = nil }

        func takeStock(sku: String, quantity: Int) -> Bool {
            guard let available = state.stock[sku], available >= quantity else { return false }
            state.stock[sku] = available - quantity
            return true
        }

        func insertOrder(_ order: Order, idempotencyKey: String) {
            state.orders.append(StoredOrder(sequence: Int64(state.orders.count + 1), order: order))
            state.keys[idempotencyKey] = (order.orderId, order.cartId)
        }
    }
}
