#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import RPCServer  // HelpColumns
import ShopAPI

/// `shop-rpc export products|stock|orders|ledger [--db PATH|URI] [--format csv|ndjson] [--since ISO-8601]`:
/// writes the catalog, its stock, the orders or the stock ledger to stdout, streaming from one snapshot of the store
/// in constant memory (protocol.md, section 9). `export products` (and `export stock`) import back
/// unchanged. Exit statuses: 0 written; 1 the store could not be opened or read, or stdout
/// failed; 2 a usage error.
enum ExportCommand {
    static let synopsis = "shop-rpc export products|stock|orders|ledger [--db PATH|URI] [--format csv|ndjson] [--since ISO-8601]"

    /// What can be exported, and each one's columns (CSV header, NDJSON members).
    enum Subject: String, CaseIterable {
        case products, stock, orders, ledger

        var columns: [String] {
            switch self {
            case .products: CatalogColumn.allCases.map(\.rawValue)
            case .stock: [CatalogColumn.sku.rawValue, CatalogColumn.stock.rawValue]
            case .orders: ["orderId", "createdAt", "cartId", "status", "currency", "totalCents", "line", "sku", "quantity", "unitPriceCents"]
            case .ledger: ["seq", "at", "sku", "delta", "availableAfter", "reason", "orderId", "source", "actor"]
            }
        }

        /// Whether `--since` applies: to the things that happen at a time.
        var takesSince: Bool { self == .orders || self == .ledger }
    }

    static var usage: String {
        CommandUsage.text(
            synopsis: synopsis,
            operands: [
                HelpColumns.Row(synopsis: "products", help: "the catalog: " + Subject.products.columns.joined(separator: ",")),
                HelpColumns.Row(synopsis: "stock", help: "each product's stock: " + Subject.stock.columns.joined(separator: ",")),
                HelpColumns.Row(synopsis: "orders", help: "one record per order line, oldest order first: " + Subject.orders.columns.joined(separator: ",")),
                HelpColumns.Row(synopsis: "ledger", help: "the stock ledger, one record per change of a level, oldest first: "
                                + Subject.ledger.columns.joined(separator: ",")),
            ],
            flags: ShopFlags.exportFlags,
            notes: ["Products come in SKU order; archived products are not exported. `export products` and `export stock` import back unchanged."])
    }

    /// Writes the export to stdout and returns 0.
    /// - Throws: `CommandFailure`: a usage error, or (status 1) no store, or one that cannot be
    ///   opened or read, or a stdout that cannot be written.
    static func run(_ arguments: [String]) throws(CommandFailure) -> Int32 {
        let parsed = try CommandUsage.parse(arguments, flags: ShopFlags.exportFlags, usage: usage)
        if parsed.showHelp {
            print(usage)
            return 0
        }
        guard parsed.operands.count == 1, let subject = Subject(rawValue: parsed.operands[0]) else {
            throw .usage("export takes one of products, stock, orders or ledger, got \(parsed.operands.joined(separator: " "))\n\(usage)")
        }
        let since = parsed[ShopFlags.since]
        if since != nil, !subject.takesSince {
            throw .usage("--since applies to orders and ledger only\n\(usage)")
        }
        let location = StoreOpening.location(parsed[ShopFlags.database])
        if StoreOpening.isSQLiteFile(location), !StoreOpening.fileExists(location) {
            throw .failed("no store at \(location)")
        }
        // Read-only, as --read-only opens it: an export never creates, seeds, migrates or writes a store.
        let service = try StoreOpening.open(location, creation: .demoCatalog, readOnly: true)
        do {
            try CatalogFiles.write(format: parsed[ShopFlags.format] ?? .csv, columns: subject.columns, to: STDOUT_FILENO) { writer in
                try export(subject, from: service, since: since, to: &writer)
            }
        } catch {
            throw StoreOpening.failure(location, "export failed: \(StoreOpening.reason(error))", status: 1)
        }
        return 0
    }

    private static func export(_ subject: Subject, from service: ShopService, since: OrderTime?, to writer: inout RecordWriter<FileDescriptorSink>) throws {
        switch subject {
        case .products:
            try service.exportProducts { product, stock in try writer.writeProduct(product, stock: stock) }
        case .stock:
            try service.exportProducts { product, stock in
                try writer.write(product.sku)
                try writer.write(stock)
                try writer.endRecord()
            }
        case .orders:
            try service.exportOrders(since: since) { order in
                for (index, line) in order.lines.enumerated() {
                    try writer.write(order.orderId)
                    try writer.write(order.createdAt)
                    try writer.write(order.cartId)
                    try writer.write(order.status)
                    try writer.write(order.currency)
                    try writer.write(order.totalCents)
                    try writer.write(index + 1)
                    try writer.write(line.sku)
                    try writer.write(line.quantity)
                    try writer.write(line.unitPriceCents)
                    try writer.endRecord()
                }
            }
        case .ledger:
            try service.exportStockLedger(since: since) { movement in
                try writer.write(Int(movement.sequence))
                try writer.write(movement.at)
                try writer.write(movement.sku)
                try writer.write(movement.delta)
                try writer.write(movement.availableAfter)
                try writer.write(movement.reason.rawValue)
                for value in [movement.orderId, movement.source, movement.actor] {
                    if let value { try writer.write(value) } else { try writer.writeNull() }
                }
                try writer.endRecord()
            }
        }
    }
}
