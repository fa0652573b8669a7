import Dispatch
import RPCServer
import ShopAPI

/// The one place where the shop meets the engine: every shop method declared once, as a
/// `MethodSpec` with its name, summary, params (`DeclaredParams`: schema, reading and checks),
/// result (`DeclaredResult`: schema and JSON), the shop errors it may answer (`ShopErrorKind`),
/// its deadline, its scope (`ShopScope`: a read changes nothing and is hinted read-only to MCP
/// hosts; the catalog's are in `browse`, the other reads in `read`, a write is in `write`, an
/// operator's in `admin`), its MCP hints, and the domain call it makes. `rpc.discover`, the MCP tools, protocol.md's method table and the generated clients all
/// come from this table. The domain does not import the engine; only this target does.
public enum ShopMethods {
    /// `inventory.check`'s deadline and the exact message users see when it passes.
    public static let inventoryDeadlineMs = 5_000
    public static let inventoryUnavailableMessage = "Inventory information is temporarily unavailable, please try again later"

    /// The shop's method table, ready to register. With an `inventory` source, `inventory.check`
    /// asks it for live stock instead of reading the store.
    /// - Parameters:
    ///   - customer: the customer the whole process serves (`--customer`), fixed here: every cart
    ///     and order method passes it to the service, and nothing in a request (params, `_meta`)
    ///     is read for it. Nil serves the whole shop.
    ///   - allowedScopes: the scopes the server serves; `orders.list`'s `customer` param is
    ///     answered only by a session without a customer that serves `admin`, and refused with
    ///     -32602 by every other.
    public static func specs(service: ShopService, inventory: (any InventorySource)? = nil, customer: String? = nil,
                             allowedScopes: Set<ShopScope> = Set(ShopScope.allCases)) -> [MethodSpec] {
        let lanes = ReadLanes(count: service.readConcurrency, inlineWhenIdle: service.readsAreLocal)
        let answersCustomerParam = customer == nil && allowedScopes.contains(.admin)
        return [
            read("catalog.list", CatalogListParams.self, CatalogPage.self, scope: .browse, lanes: lanes,
                 summary: "Products in catalog order, one entry each with its variants, a page at a time.", errors: [.invalidCursor]) { params, token in
                try service.listCatalog(cursor: params.cursor, limit: params.limit ?? ShopLimits.defaultPageSize,
                                        category: params.category, interruption: token)
            },
            read("catalog.count", CatalogCountParams.self, ProductCount.self, scope: .browse, lanes: lanes,
                 summary: "How many products the catalog holds, optionally in one category.", errors: []) { params, token in
                try service.countProducts(category: params.category, interruption: token)
            },
            read("catalog.get", SkuParams.self, Product.self, scope: .browse, lanes: lanes,
                 summary: "One SKU (a variant): its product's fields, its price and its options.", errors: [.notFound]) { params, token in
                try service.product(sku: params.sku, interruption: token)
            },
            read("catalog.product", HandleParams.self, ProductWithVariants.self, scope: .browse, lanes: lanes,
                 summary: "One product with every variant of it and their stock.", errors: [.notFound]) { params, token in
                try service.catalogProduct(handle: params.handle, interruption: token)
            },
            read("catalog.search", CatalogSearchParams.self, ProductSearchPage.self, scope: .browse, lanes: lanes,
                 summary: "Products (one entry each, with its variants) matching the query, best first: typos, plurals, SKUs and words of every field; with the total and a cursor to the next page.",
                 errors: [.invalidCursor]) { params, token in
                try service.searchProducts(ProductSearchRequest(query: params.query, limit: params.limit ?? ShopLimits.defaultSearchPageSize),
                                           interruption: token)
            },
            inventory.map(liveInventoryCheck) ??
            read("inventory.check", InventoryCheckParams.self, InventoryLevels.self, scope: .browse, lanes: lanes,
                 deadlineMs: inventoryDeadlineMs, deadlineMessage: inventoryUnavailableMessage,
                 summary: "Units available per sku, in request order.", errors: []) { params, token in
                try service.checkInventory(skus: params.skus, interruption: token)
            },
            read("cart.get", CartParams.self, Cart.self, lanes: lanes, summary: "A cart (an unknown cart is empty).", errors: [.cartFull]) { params, token in
                try service.cart(id: params.cartId, customer: customer, interruption: token)
            },
            write("cart.add", CartAddParams.self, Cart.self, summary: "Adds quantity of a sku to a cart line.",
                  errors: [.notFound, .invalidQuantity, .cartFull], hints: MethodHints(destructive: false, idempotent: false)) { params, call, done in
                service.addToCart(cartId: params.cartId, sku: params.sku, quantity: params.quantity, customer: customer, interruption: call.interruption, completion: done)
            },
            write("cart.remove", CartLineParams.self, Cart.self, summary: "Removes a sku's line from a cart.",
                  errors: [.cartFull], hints: MethodHints(destructive: true, idempotent: true)) { params, call, done in
                service.removeFromCart(cartId: params.cartId, sku: params.sku, customer: customer, interruption: call.interruption, completion: done)
            },
            write("cart.clear", CartParams.self, Cart.self, summary: "Empties a cart.",
                  errors: [], hints: MethodHints(destructive: true, idempotent: true)) { params, call, done in
                service.clearCart(cartId: params.cartId, customer: customer, interruption: call.interruption, completion: done)
            },
            write("orders.place", PlaceOrderParams.self, Order.self,
                  summary: "Takes stock for every line, records the order and empties the cart in one durable transaction; idempotent per key.",
                  errors: [.notFound, .outOfStock, .cartEmpty, .idempotencyConflict, .cartFull],
                  hints: MethodHints(destructive: false, idempotent: true)) { params, call, done in
                service.placeOrder(cartId: params.cartId, idempotencyKey: params.idempotencyKey, customer: customer, actor: call.actor,
                                   interruption: call.interruption, completion: done)
            },
            write("orders.cancel", CancelOrderParams.self, Order.self,
                  summary: "Cancels an order and puts every line back in stock in one durable transaction; cancelling again returns the order as it is.",
                  errors: [.notFound], hints: MethodHints(destructive: true, idempotent: true)) { params, call, done in
                service.cancelOrder(id: params.orderId, reason: params.reason, customer: customer, actor: call.actor, interruption: call.interruption, completion: done)
            },
            read("orders.get", OrderParams.self, Order.self, lanes: lanes, summary: "One order.", errors: [.notFound]) { params, token in
                try service.order(id: params.orderId, customer: customer, interruption: token)
            },
            read("orders.list", OrdersListParams.self, OrderPage.self, lanes: lanes,
                 summary: "Orders, newest first, optionally of one cart; a customer's session lists its own only.",
                 errors: [.invalidCursor]) { params, token in
                if params.customer != nil, !answersCustomerParam {
                    throw RPCError.invalidParams(
                        "'customer' is answered only by a server without --customer that serves the admin scope", field: "customer")
                }
                return try service.listOrders(cartId: params.cartId, customer: customer ?? params.customer, cursor: params.cursor,
                                              limit: params.limit ?? ShopLimits.defaultPageSize, interruption: token)
            },
            admin("admin.stock.adjust", StockAdjustParams.self, StockLevel.self,
                  summary: "Adds (or with a negative delta takes) units of a sku, for a reason: received, correction, damaged, returned or other.",
                  errors: [.notFound, .stockOutOfRange], hints: MethodHints(destructive: true, idempotent: false)) { params, call, done in
                guard let reason = params.adjustmentReason else { return done(Result<StockLevel, ShopError>.failure(.storage("unvalidated adjust reason"))) }
                service.adjustStock(sku: params.sku, delta: params.delta, reason: reason, actor: call.actor,
                                    interruption: call.interruption, completion: done)
            },
            admin("admin.stock.set", StockSetParams.self, StockLevel.self,
                  summary: "Puts a sku's level at a number; with expected, only if the level is still expected (compare-and-set).",
                  errors: [.notFound, .stockOutOfRange, .stockMismatch], hints: MethodHints(destructive: true, idempotent: true)) { params, call, done in
                service.setStock(sku: params.sku, available: params.available, expected: params.expected, actor: call.actor,
                                 interruption: call.interruption, completion: done)
            },
            adminSync("admin.products.upsert", ProductsUpsertParams.self, CatalogImportSummary.self,
                      summary: "Adds or changes up to \(ShopLimits.maxProductsPerCall) products with the catalog import's rules, all or nothing; answers the import's summary.",
                      errors: [], hints: MethodHints(destructive: true, idempotent: true)) { params, call in
                try service.upsertProducts(ndjson: ProductsUpsertParams.ndjson(params.products), actor: call.actor, interruption: call.interruption)
            },
            admin("admin.products.archive", ProductsArchiveParams.self, ProductsArchived.self,
                  summary: "Takes products out of the catalog as an import with --replace does (their stock and orders kept); all or nothing.",
                  errors: [.notFound], hints: MethodHints(destructive: true, idempotent: true)) { params, call, done in
                service.archiveProducts(skus: params.skus, interruption: call.interruption, completion: done)
            },
        ]
    }

    // MARK: - Binding styles

    /// `inventory.check` answered by an `InventorySource` (an inventory service): never blocks a
    /// thread while it waits; the call's token withdraws a queued check or cancels its request.
    private static func liveInventoryCheck(_ source: any InventorySource) -> MethodSpec {
        .callback("inventory.check", params: InventoryCheckParams.self, deadlineMs: inventoryDeadlineMs, deadlineMessage: inventoryUnavailableMessage,
                  summary: "Units available per sku, in request order, from the inventory service.",
                  paramsSchema: InventoryCheckParams.schema, resultSchema: InventoryLevels.schema) { (params: InventoryCheckParams, context: CallContext, completion: @escaping @Sendable (Result<InventoryLevels, any Error>) -> Void) in
            do {
                try params.validate()
            } catch {
                return completion(.failure(error))
            }
            source.checkInventory(skus: params.skus, deadline: context.deadline, interruption: context.cancellation) { result in completion(result.mapError { $0 }) }
        }
        .answering(errors: [ShopErrorKind.inventoryUnavailable.methodError])
        .hinting(.readOnly)
        .scoped(ShopScope.browse.rawValue)
    }

    /// A synchronous store read, started on one of the read lanes; the call's token interrupts it.
    /// In `scope`: read unless said (the catalog's are in browse).
    private static func read<Params: DeclaredParams, Output: DeclaredResult & Encodable>(
        _ name: String, _ params: Params.Type, _ result: Output.Type, scope: ShopScope = .read, lanes: ReadLanes,
        deadlineMs: Int = MethodSpec.defaultDeadlineMs,
        deadlineMessage: String? = nil, summary: String, errors: [ShopErrorKind],
        _ body: @escaping @Sendable (Params, any ShopInterruption) throws -> Output
    ) -> MethodSpec {
        .synchronous(name, params: params, deadlineMs: deadlineMs, deadlineMessage: deadlineMessage, summary: summary,
                     paramsSchema: Params.schema, resultSchema: Output.schema) { (params: Params, context: CallContext) in
            try params.validate()
            return try body(params, ShopCallInterruption(context))
        }
        .answering(errors: (errors + ShopErrorKind.store).map(\.methodError))
        .startingOn(lanes.run)
        .hinting(.readOnly)
        .scoped(scope.rawValue)
    }

    /// An operator's store write (`admin.*`): as `write`, in the admin scope, which a server
    /// serves only when told to (`--allow …,admin`).
    private static func admin<Params: DeclaredParams, Output: DeclaredResult & Encodable>(
        _ name: String, _ params: Params.Type, _ result: Output.Type, summary: String, errors: [ShopErrorKind], hints: MethodHints,
        _ body: @escaping @Sendable (Params, ShopCall, @escaping @Sendable (Result<Output, ShopError>) -> Void) -> Void
    ) -> MethodSpec {
        write(name, params, result, summary: summary, errors: errors, hints: hints, body)
            .scoped(ShopScope.admin.rawValue)
    }

    /// An operator's write that runs synchronously on the engine's work queue (an upsert is a
    /// catalog import, which holds its connection while it runs), in the admin scope. Interrupted,
    /// it is answered as `write` is.
    private static func adminSync<Params: DeclaredParams, Output: DeclaredResult & Encodable>(
        _ name: String, _ params: Params.Type, _ result: Output.Type, summary: String, errors: [ShopErrorKind], hints: MethodHints,
        _ body: @escaping @Sendable (Params, ShopCall) throws -> Output
    ) -> MethodSpec {
        .callback(name, params: params, summary: summary,
                  paramsSchema: Params.schema, resultSchema: Output.schema) { (params: Params, context: CallContext, completion: @escaping @Sendable (Result<Output, any Error>) -> Void) in
            completion(Result {
                try params.validate()
                return try body(params, ShopCall(context))
            })
        }
        .answering(errors: (errors + ShopErrorKind.store).map(\.methodError))
        .hinting(hints)
        .answeringInterruptionsAfterWorkStops()
        .scoped(ShopScope.admin.rawValue)
    }

    /// A store write, handed to the service's grouping writer; its completion ends the call. In
    /// the write scope. A deadline or cancel that arrives while it runs is answered once the write
    /// has stopped: its result if it committed, the -32001 or -32800 if it rolled back.
    private static func write<Params: DeclaredParams, Output: DeclaredResult & Encodable>(
        _ name: String, _ params: Params.Type, _ result: Output.Type, summary: String, errors: [ShopErrorKind], hints: MethodHints,
        _ body: @escaping @Sendable (Params, ShopCall, @escaping @Sendable (Result<Output, ShopError>) -> Void) -> Void
    ) -> MethodSpec {
        .callback(name, params: params, summary: summary,
                  paramsSchema: Params.schema, resultSchema: Output.schema) { (params: Params, context: CallContext, completion: @escaping @Sendable (Result<Output, any Error>) -> Void) in
            do {
                try params.validate()
            } catch {
                return completion(.failure(error))
            }
            body(params, ShopCall(context)) { result in completion(result.mapError { $0 }) }
        }
        .answering(errors: (errors + ShopErrorKind.store).map(\.methodError))
        .hinting(hints)
        .answeringInterruptionsAfterWorkStops()
        .scoped(ShopScope.write.rawValue)
    }
}
