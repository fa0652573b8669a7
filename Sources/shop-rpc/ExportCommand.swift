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

    static var usage: String {
        CommandUsage.text(
            synopsis: synopsis,
            operands: [
                HelpColumns.Row(synopsis: "products", help: "the catalog: " + ExportSubject.products.columns.joined(separator: ",")),
                HelpColumns.Row(synopsis: "stock", help: "each product's stock: " + ExportSubject.stock.columns.joined(separator: ",")),
                HelpColumns.Row(synopsis: "orders", help: "one record per order line, oldest order first: " + ExportSubject.orders.columns.joined(separator: ",")),
                HelpColumns.Row(synopsis: "ledger", help: "the stock ledger, one record per change of a level, oldest first: "
                                + ExportSubject.ledger.columns.joined(separator: ",")),
            ],
            flags: ShopFlags.exportFlags,
            notes: ["Products come in catalog order, one record per variant; drafts are exported with their status, archived products are not. `export products` and `export stock` import back unchanged."])
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
        guard parsed.operands.count == 1, let subject = ExportSubject(rawValue: parsed.operands[0]) else {
            let names = ExportSubject.allCases.map(\.rawValue)
            throw .usage("export takes one of \(names.dropLast().joined(separator: ", ")) or \(names[names.count - 1]), got \(parsed.operands.joined(separator: " "))\n\(usage)")
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
            try CatalogFiles.write(format: parsed[ShopFlags.format] ?? ShopFlags.exportDefaultFormat, columns: subject.columns, to: STDOUT_FILENO) { writer in
                try service.export(subject, since: since, to: &writer)
            }
        } catch {
            throw StoreOpening.failure(location, "export failed: \(StoreOpening.reason(error))", status: 1)
        }
        return 0
    }
}
