/// What `shop-rpc export` can write (protocol.md, section 9), each with its record layout: its
/// columns (the CSV header, the NDJSON members, in order) here, and the record that fills them in
/// that order beside the products' (`RecordWriter.writeProduct`, `writeStockLevel`,
/// `writeOrderLines`, `writeStockMovement`). `products` and `stock` import back unchanged.
package enum ExportSubject: String, CaseIterable, Sendable {
    case products, stock, orders, ledger

    /// The record's fields, in the order they are written.
    package var columns: [String] {
        switch self {
        case .products: CatalogColumn.exported.map(\.rawValue)
        case .stock: [CatalogColumn.sku.rawValue, CatalogColumn.stock.rawValue]
        case .orders: ["orderId", "createdAt", "cartId", "customer", "status", "currency", "totalCents", "line", "sku", "quantity", "unitPriceCents"]
        case .ledger: ["seq", "at", "sku", "delta", "availableAfter", "reason", "orderId", "source", "actor"]
        }
    }

    /// Whether a `since` time applies: to the things that happen at a time.
    package var takesSince: Bool { self == .orders || self == .ledger }
}

extension ShopService {
    /// Writes every record of `subject` to `writer` (whose columns are `subject.columns`), from one
    /// consistent snapshot of the store, in constant memory: products (every variant) and stock in
    /// catalog order (archived products left out, drafts in), orders oldest first and one record per line, the ledger in
    /// its order; orders and ledger only from `since` on, when given. Does not call `finish()`.
    /// - Throws: `ShopError` when the store fails, `ByteSinkError` when the sink does.
    package func export<Sink: ByteSink>(_ subject: ExportSubject, since: OrderTime?, to writer: inout RecordWriter<Sink>) throws {
        precondition(writer.columns == subject.columns, "the writer's columns are \(subject)'s")
        switch subject {
        case .products: try exportProducts { product, status, stock in try writer.writeProduct(product, status: status, stock: stock) }
        case .stock: try exportProducts { product, _, stock in try writer.writeStockLevel(sku: product.sku, stock: stock) }
        case .orders: try exportOrders(since: since) { order in try writer.writeOrderLines(order) }
        case .ledger: try exportStockLedger(since: since) { movement in try writer.writeStockMovement(movement) }
        }
    }
}
