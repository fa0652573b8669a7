import Dispatch
import FoundationEssentials
import SharedSupport

/// The shop: catalog, inventory, carts and orders, with their rules, over a `ShopStore`.
///
/// - Thread-safe: every method may be called from any thread, concurrently.
/// - Reads are synchronous and run on the caller's thread on a pooled read connection; each sees
///   one consistent snapshot, including every write whose completion has already been called.
/// - Writes take a completion, called **exactly once, on `callbackQueue`**, after the change is
///   durable. Writes submitted concurrently are grouped by one writer into one transaction (one
///   fsync), each in its own savepoint, so one failing write never undoes another.
/// - Only `ShopError` is ever thrown or delivered.
public final class ShopService: Sendable {
    let store: any ShopStore
    /// The clock that stamps new orders.
    let now: @Sendable () -> Date
    /// Makes the id of a new order.
    let makeOrderId: @Sendable () -> String
    /// The store's currency once known: it never changes after the first product (`ShopCurrency`).
    private let knownCurrency = Locked<String?>(nil)
    /// The searches this service answered that found nothing (`searchProducts`), for `rpc.stats`.
    public let searchStats = SearchStats()
    /// The last search synonyms read from the store, with the text they were decoded from.
    let decodedSynonyms = Locked<(json: String, synonyms: SearchSynonyms, index: SearchSynonymIndex)?>(nil)

    init(
        store: any ShopStore,
        now: @escaping @Sendable () -> Date = { Date() },
        makeOrderId: @escaping @Sendable () -> String = OrderStamp.randomOrderId
    ) {
        self.store = store
        self.now = now
        self.makeOrderId = makeOrderId
    }

    // MARK: - Statistics

    /// Write transactions committed and write operations run in them since opening. Under
    /// concurrent writes `operations > transactions`: several operations share one fsync.
    public var stats: (transactions: Int, operations: Int) {
        store.stats
    }

    /// How many reads can run at once without waiting for each other. A caller that runs reads
    /// on its own threads gains nothing from running more at once than this.
    public var readConcurrency: Int {
        store.readConcurrency
    }

    /// Whether the store's reads are local (SQLite) rather than over a network (PostgreSQL).
    package var readsAreLocal: Bool {
        store.readsAreLocal
    }

    // MARK: - Currency

    /// The store's currency, read with `transaction` the first time and remembered after (a
    /// store's currency is set with its first product and never changes); `ShopCurrency.defaultCode`
    /// while the store has no products.
    func currency(in transaction: any ShopReadTransaction) throws -> String {
        if let known = knownCurrency.withLock({ $0 }) { return known }
        guard let read = try transaction.catalogCurrency() else { return ShopCurrency.defaultCode }
        knownCurrency.withLock { $0 = read }
        return read
    }

    /// The store's currency if it was read before, else nil.
    var knownCurrencyCode: String? {
        knownCurrency.withLock { $0 }
    }

    // MARK: - Helpers for the rules

    /// `limit` clamped to `1...maximum`; below 1 means `ShopLimits.defaultPageSize`.
    static func pageSize(_ limit: Int, maximum: Int = ShopLimits.maxPageSize) -> Int {
        limit < 1 ? min(ShopLimits.defaultPageSize, maximum) : min(limit, maximum)
    }

    /// Delivers a result that needs no store work, keeping the exactly-once, on-`queue` promise.
    static func deliver<T: Sendable>(
        _ result: Result<T, ShopError>,
        on queue: DispatchQueue,
        to completion: @escaping @Sendable (Result<T, ShopError>) -> Void
    ) {
        queue.async { completion(result) }
    }
}
