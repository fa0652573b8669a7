#if canImport(Glibc)
import Glibc  // exit
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials  // URL
import RPCServer
import ShopAPI
import ShopRPCBinding

/// `shop-rpc serve` (also what `shop-rpc` with no command does): open the store, register the
/// shop's methods, serve JSON-RPC on stdin and stdout until end of input or a signal, and exit.
enum ServeCommand {
    static let synopsis = "shop-rpc [serve] [options]"

    static func run(_ arguments: [String]) -> Never {
        var options: ServerOptions
        do {
            options = try ServerOptions.parse(arguments, applicationOptions: ShopFlags.applicationOptions)
        } catch {
            exitWithMessage("\(error)\n\(usage)", status: 2)
        }
        if options.showHelp {
            print(usage)
            exit(0)
        }
        if options.showVersion {
            print("shop-rpc \(version)")
            exit(0)
        }
        // Checked before the store is opened, so a bad flag never creates or migrates a store.
        let scopes = ShopFlags.allowedScopes(in: options)
        options.engine.allowedScopes = Set(scopes.map(\.rawValue))
        let inventory = inventorySource(options)
        let service = openStore(options)

        var registry = MethodRegistry(ShopMethods.specs(service: service, inventory: inventory))
        if let inventory {
            // rpc.stats: what the inventory client is doing (protocol.md, section 6.2).
            registry.addStatsSection("inventory") { inventory.stats.json }
        }
        do {
            let reason = try StdioServer.run(registry: registry, options: options, identity: identity(serving: scopes))
            let stats = service.stats
            Log.info("store: \(stats.transactions) write transactions for \(stats.operations) write operations")
            // _exit after a flush, not exit(): a handler past its deadline may still run on another thread.
            StdioServer.exitProcess(status: reason.status)
        } catch {
            writeToStandardError("\(error)")
            StdioServer.exitProcess(status: 2)
        }
    }

    static var usage: String {
        ServerOptions.usage(synopsis: synopsis, applicationOptions: ShopFlags.applicationOptions)
    }

    /// The inventory client `--inventory-url` and the flags that tune it ask for, or nil; a bad
    /// value, or a tuning flag without `--inventory-url`, prints why and exits 2.
    private static func inventorySource(_ options: ServerOptions) -> HTTPInventorySource? {
        guard let text = ShopFlags.inventoryURL.value(in: options) else {
            if let stray = ShopFlags.all.first(where: { $0.needsInventoryURL && options.applicationValues[$0.flag] != nil }) {
                exitWithMessage("\(stray.flag) needs --inventory-url", status: 2)
            }
            return nil
        }
        guard let url = URL(string: text), HTTPInventorySource.isUsableBaseURL(url) else {
            exitWithMessage("--inventory-url needs an http:// or https:// URL with a host, got '\(text)'", status: 2)
        }
        do {
            return try HTTPInventorySource(
                baseURL: url,
                maxConcurrent: ShopFlags.inventoryMaxConcurrent.value(in: options),
                circuitFailures: ShopFlags.inventoryCircuitFailures.value(in: options),
                circuitCoolDownMilliseconds: ShopFlags.inventoryCircuitCoolDown.value(in: options),
                staleMilliseconds: ShopFlags.inventoryStale.value(in: options),
                coalescing: ShopFlags.inventoryCoalesce.value(in: options),
                adaptiveLimit: ShopFlags.inventoryLimit.value(in: options))
        } catch {
            exitWithMessage("--inventory-url: \(error)", status: 2)
        }
    }

    /// The store `--db` names, opened (created with the demo catalog if new; with `--read-only`,
    /// an existing one only, opened read-only); exits 2 for a URI scheme that is not a store, 1
    /// when the store cannot be opened (or, with `--read-only`, does not exist).
    private static func openStore(_ options: ServerOptions) -> ShopService {
        StoreOpening.open(
            StoreOpening.location(ShopFlags.database.value(in: options)), creation: .demoCatalog,
            readOnly: ShopFlags.readOnly.isSet(in: options), postgresPoolSize: ShopFlags.poolSize.value(in: options))
    }

    /// Who this server says it is, in `rpc.discover` and to MCP hosts; the advice to hosts names
    /// only tools that `scopes` serve.
    private static func identity(serving scopes: Set<ShopScope>) -> ServerIdentity {
        var instructions = "A small shop: browse the catalog and check live inventory"
        if scopes.contains(.write) {
            instructions += """
                , fill a cart, place orders. Money is in integer cents (priceCents, totalCents). Add items \
                with cart_add and wait for its result before orders_place. orders_place is idempotent per \
                idempotencyKey: on a retry (after a timeout or an error) reuse the same key, never a new one, \
                or the order may be placed twice.
                """
        } else {
            instructions += ", and look at carts and orders; this server changes nothing. Money is in integer cents (priceCents, totalCents)."
        }
        instructions += " Every tool has a deadline; inventory_check gives up after 5 s when the inventory service is slow: say so and offer to try again later."
        return ServerIdentity(name: "shop-rpc", title: "Shop RPC", version: version, instructions: instructions)
    }
}
