import Dispatch
import Foundation
@testable import ShopAPI

/// A fake `ShopStore` on dictionaries, so the service's rules can be tested without SQLite.
/// Thread-safe: one lock; a write works on a copy of the state and keeps it only on success.
final class InMemoryShopStore: ShopStore, @unchecked Sendable {
    struct State {
        var products: [String: Product] = [:]
        var searchSynonymsJSON: String?
        var stock: [String: Int] = [:]
        /// Catalog order; archived products keep theirs.
        var seq: [String: Int64] = [:]
        /// Each product's status, by handle; a handle not here is active.
        var status: [String: ProductStatus] = [:]
        /// The SKUs of products not active (drafts and archived ones), which shoppers do not see.
        var archived: Set<String> { Set(products.values.filter { status[$0.handle, default: .active] != .active }.map(\.sku)) }

        /// The seq of the first variant of `handle`'s product.
        func productSeq(_ handle: String) -> Int64? {
            products.values.filter { $0.handle == handle }.compactMap { seq[$0.sku] }.min()
        }

        /// `sku`'s variant as the import's rules see it.
        func stored(_ sku: String) -> StoredProduct? {
            products[sku].map {
                StoredProduct(product: $0, stock: stock[sku] ?? 0, status: status[$0.handle, default: .active], seq: seq[sku] ?? 0,
                              productSeq: productSeq($0.handle) ?? 0)
            }
        }

        /// Sets the product fields of every variant of `product`'s handle to its own.
        mutating func setProductFields(_ product: Product, _ newStatus: ProductStatus) {
            status[product.handle] = newStatus
            for (sku, variant) in products where variant.handle == product.handle {
                let options = zip(product.options.map(\.name), variant.options.map(\.value)).map { ProductOption(name: $0, value: $1) }
                products[sku] = Product(sku: sku, name: product.name, description: product.description, category: product.category,
                                        priceCents: variant.priceCents, currency: variant.currency, handle: variant.handle,
                                        brand: product.brand, options: options)
            }
        }
        var carts: [String: [CartLine]] = [:]
        var orders: [StoredOrder] = []
        var keys: [String: (orderId: String, cartId: String)] = [:]
        var ledger: [StockMovement] = []

        /// Puts `sku` at `level`, with its ledger row when that changes it.
        mutating func setStock(_ sku: String, _ level: Int, _ cause: StockChangeCause) {
            let old = stock[sku] ?? 0
            stock[sku] = level
            guard level != old else { return }
            ledger.append(StockMovement(
                sequence: Int64(ledger.count + 1), at: cause.at, sku: sku, delta: level - old, availableAfter: level,
                reason: cause.reason, orderId: cause.orderId, source: cause.source, actor: cause.actor))
        }
    }

    private let lock = NSLock()
    private var state: State
    private var counts = (transactions: 0, operations: 0)

    init(products: [(Product, stock: Int)]) {
        var state = State()
        for (product, stock) in products {
            state.products[product.sku] = product
            state.stock[product.sku] = stock
            state.seq[product.sku] = Int64(state.seq.count + 1)
        }
        self.state = state
    }

    /// Puts `lines` in cart `cartId` as they are, bypassing the service's rules: a cart as a build
    /// before a rule existed (`ShopLimits.maxCartLines`) could have written it.
    func plantCart(_ cartId: String, lines: [CartLine]) {
        lock.withLock { state.carts[cartId] = lines }
    }

    /// The level of `sku` now.
    func stock(_ sku: String) -> Int? {
        lock.withLock { state.stock[sku] }
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

    // MARK: - Catalog files

    /// `CatalogRowMerge`'s rules over the dictionaries, all or nothing.
    func importCatalog<Source: CatalogRowSource>(
        from source: inout Source, options: CatalogImportOptions, stockChanges: StockChangeCause,
        interruption: (any ShopInterruption)?, progress: (CatalogImportProgress) -> Void
    ) throws(ShopError) -> CatalogImportOutcome {
        var state = lock.withLock { self.state }
        var summary = CatalogImportSummary()
        var currency = state.products.values.first?.currency
        var listed: Set<String> = []
        do {
            while let row = try source.nextRow() {
                let sku = row.sku
                currency = currency ?? CatalogRowMerge.storeCurrency(existing: nil, firstRow: row)
                let existing = state.stored(sku)
                let sibling = existing == nil ? row.handle.flatMap { handle in
                    state.products.values.filter { $0.handle == handle }.min { state.seq[$0.sku] ?? 0 < state.seq[$1.sku] ?? 0 }
                }.flatMap { state.stored($0.sku) } : nil
                let outcome = CatalogRowMerge.merge(row, into: existing, sibling: sibling, currency: currency!)
                summary.count(row, outcome, currency: currency!)
                listed.insert((existing ?? sibling)?.product.handle ?? row.handle ?? sku)
                switch outcome {
                case let .rejected(errors):
                    for error in errors { source.reportError(line: row.line, field: error.field, message: error.message) }
                case let .create(product, status, stock, _, _):
                    state.products[sku] = product
                    state.setStock(sku, stock, stockChanges)
                    state.seq[sku] = Int64(state.seq.count + 1)
                    state.setProductFields(product, status)
                case let .update(product, status, stock, _):
                    state.products[sku] = product
                    state.setProductFields(product, status)
                    if let stock { state.setStock(sku, stock, stockChanges) }
                case let .keep(stock):
                    if let stock { state.setStock(sku, stock, stockChanges) }
                }
            }
        } catch {
            throw ShopError(storeError: error)
        }
        summary.finishWarnings(strict: options.strict, reportingTo: &source)
        if options.replace {
            for handle in Set(state.products.values.map(\.handle)) where !listed.contains(handle) && state.status[handle] != .archived {
                state.status[handle] = .archived
                summary.archived += 1
            }
        }
        let commit = !options.dryRun && !source.hasErrors
        if commit { lock.withLock { self.state = state } }
        return CatalogImportOutcome(summary: summary, committed: commit)
    }

    func exportProducts(_ body: (Product, ProductStatus, Int) throws -> Void) throws {
        let state = lock.withLock { self.state }
        let place = { (product: Product) in (state.productSeq(product.handle) ?? 0, state.seq[product.sku] ?? 0) }
        for product in state.products.values.sorted(by: { place($0) < place($1) }) {
            let status = state.status[product.handle, default: .active]
            if status != .archived { try body(product, status, state.stock[product.sku] ?? 0) }
        }
    }

    func exportStockLedger(since: String?, _ body: (StockMovement) throws -> Void) throws {
        for movement in lock.withLock({ state.ledger }) where movement.at >= (since ?? "") {
            try body(movement)
        }
    }

    func exportOrders(since: String?, _ body: (Order) throws -> Void) throws {
        for stored in lock.withLock({ state.orders }) where stored.order.createdAt >= (since ?? "") {
            try body(stored.order)
        }
    }

    var stats: (transactions: Int, operations: Int) { lock.withLock { counts } }

    var readConcurrency: Int { 1 }

    // MARK: - Transaction

    private final class Transaction: ShopOrderTransaction {
        var state: State

        init(state: State) {
            self.state = state
        }

        /// The first variant of each active product, in catalog order.
        private var live: [Product] {
            let archived = state.archived
            return state.products.values
                .filter { !archived.contains($0.sku) && state.seq[$0.sku] == state.productSeq($0.handle) }
                .sorted { state.seq[$0.sku] ?? 0 < state.seq[$1.sku] ?? 0 }
        }

        /// `first`, a product's first variant, as a listing reads it.
        private func listed(_ first: Product) -> ListedProduct {
            ListedProduct(first: first, available: state.stock[first.sku] ?? 0,
                          hasOtherVariants: state.products.values.contains { $0.handle == first.handle && $0.sku != first.sku })
        }

        func products(afterSeq: Int64?, category: String?, limit: Int) -> [(seq: Int64, listed: ListedProduct)] {
            Array(live
                .map { (seq: state.seq[$0.sku] ?? 0, listed: listed($0)) }
                .filter { $0.seq > (afterSeq ?? .min) && (category == nil || $0.listed.first.category == category) }
                .prefix(limit))
        }

        func variantChoices(handles: [String]) -> [String: [VariantChoice]] {
            var choices: [String: [VariantChoice]] = [:]
            for handle in handles {
                choices[handle] = productVariants(handle: handle).map {
                    VariantChoice(sku: $0.product.sku, options: $0.product.options, priceCents: $0.product.priceCents, inStock: $0.available > 0)
                }
            }
            return choices
        }

        func productVariants(handle: String) -> [(product: Product, available: Int)] {
            guard state.status[handle, default: .active] == .active else { return [] }
            return state.products.values.filter { $0.handle == handle }
                .sorted { state.seq[$0.sku] ?? 0 < state.seq[$1.sku] ?? 0 }
                .map { (product: $0, available: state.stock[$0.sku] ?? 0) }
        }

        func productCount(category: String?) -> Int { live.filter { category == nil || $0.category == category }.count }

        func product(sku: String) -> Product? { state.archived.contains(sku) ? nil : state.products[sku] }

        // MARK: Search: the reference, every live product in memory (`SearchScanIndex`)

        /// Built at the first search read of this transaction (only read transactions search, and
        /// they change nothing).
        private var scanIndex: SearchScanIndex?

        private func searchIndex() throws -> SearchScanIndex {
            if let scanIndex { return scanIndex }
            let index = try SearchScanIndex.reading(self)
            scanIndex = index
            return index
        }

        func enumerateWords(from lowerBound: String, to upperBound: String?, _ body: (String) throws -> Bool) throws {
            try searchIndex().vocabulary.enumerateWords(from: lowerBound, to: upperBound, body)
        }

        func documentFrequency(of word: String) throws -> Int {
            try searchIndex().vocabulary.documentFrequency(of: word)
        }

        func searchCandidates(lookups: [SearchQueryPlan.WordLookup], filters: ProductSearchFilters, limit: Int) throws -> [Int64] {
            try searchIndex().candidates(lookups: lookups, filters: filters, limit: limit)
        }

        func searchCandidateCount(lookups: [SearchQueryPlan.WordLookup], filters: ProductSearchFilters, atMost limit: Int) throws -> Int {
            min(try searchIndex().count(lookups: lookups, filters: filters), max(limit, 0))
        }

        func searchEntries(seqs: [Int64]) throws -> [SearchEntry] {
            try searchIndex().entries(seqs: seqs)
        }

        func available(sku: String) -> Int? { state.archived.contains(sku) ? nil : state.stock[sku] }

        func catalogCurrency() -> String? { state.products.values.first?.currency }
        func searchSynonymsJSON() -> String? { state.searchSynonymsJSON }
        func cartLines(cartId: String) -> [CartLine] { state.carts[cartId] ?? [] }
        func order(id: String) -> Order? { state.orders.first { $0.order.orderId == id }?.order }

        func orders(cartId: String?, customerPrefix: String?, beforeSequence: Int64?, limit: Int) -> [StoredOrder] {
            Array(state.orders.reversed()
                .filter { $0.sequence < (beforeSequence ?? .max) && (cartId == nil || $0.order.cartId == cartId) }
                .filter { cartId != nil || customerPrefix.map($0.order.cartId.hasPrefix) ?? true }
                .prefix(limit))
        }

        func orderReference(idempotencyKey: String) -> (orderId: String, cartId: String)? { state.keys[idempotencyKey] }

        func stockMovements(afterSequence: Int64, since: String?, limit: Int) -> [StockMovement] {
            Array(state.ledger.filter { $0.sequence > afterSequence && $0.at >= (since ?? "") }.prefix(limit))
        }

        func lockCart(cartId: String) {}  // writes run one at a time under the store's lock

        func setCartLine(cartId: String, line: CartLine) {
            var lines = state.carts[cartId] ?? []
            if let index = lines.firstIndex(where: { $0.sku == line.sku }) { lines[index] = line } else { lines.append(line) }
            state.carts[cartId] = lines
        }

        func removeCartLine(cartId: String, sku: String) { state.carts[cartId]?.removeAll { $0.sku == sku } }
        func clearCart(cartId: String) { state.carts[cartId] = nil }

        func lockStock(sku: String) -> Int? { available(sku: sku) }

        func changeStock(sku: String, by delta: Int, onlyIfListed: Bool, cause: StockChangeCause) -> Int? {
            guard !(onlyIfListed && state.archived.contains(sku)), let available = state.stock[sku], available + delta >= 0 else { return nil }
            state.stock[sku] = available + delta
            state.ledger.append(StockMovement(
                sequence: Int64(state.ledger.count + 1), at: cause.at, sku: sku, delta: delta, availableAfter: available + delta,
                reason: cause.reason, orderId: cause.orderId, source: cause.source, actor: cause.actor))
            return available + delta
        }

        func lockOrder(id: String) -> Order? { order(id: id) }

        func archiveProduct(sku: String) -> ProductArchiving {
            guard let product = state.products[sku] else { return .unknown }
            guard state.status[product.handle] != .archived else { return .alreadyArchived }
            state.status[product.handle] = .archived
            return .archived
        }

        func setSearchSynonymsJSON(_ json: String?) { state.searchSynonymsJSON = json }

        func markOrderCancelled(id: String, at: String, reason: String?) {
            guard let index = state.orders.firstIndex(where: { $0.order.orderId == id }) else { return }
            let stored = state.orders[index]
            state.orders[index] = StoredOrder(sequence: stored.sequence, order: stored.order.cancelled(at: at, reason: reason))
        }

        func insertOrder(_ order: Order, idempotencyKey: String) {
            state.orders.append(StoredOrder(sequence: Int64(state.orders.count + 1), order: order))
            state.keys[idempotencyKey] = (order.orderId, order.cartId)
        }
    }
}
