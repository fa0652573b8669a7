import FoundationEssentials  // URL
import RPCServer
import ShopAPI
import ShopRPCBinding

/// `shop-rpc serve` (also what `shop-rpc` with no command does): open the store, register the
/// shop's methods, and serve JSON-RPC on stdin and stdout until end of input or a signal.
enum ServeCommand {
    static let synopsis = "shop-rpc [serve] [options]"

    /// Serves until the session ends and returns the exit status (`StdioServer.ExitReason`); the
    /// caller ends the process, with `_exit`, since a handler past its deadline may still run on
    /// another thread.
    /// - Throws: `CommandFailure` for a usage error or a bad flag value (checked before the store
    ///   is opened, so a bad flag never creates or migrates a store), a store that cannot be
    ///   opened, or a server that cannot start.
    static func run(_ arguments: [String]) throws(CommandFailure) -> Int32 {
        var options: ServerOptions
        do {
            options = try ServerOptions.parse(arguments, flags: ShopFlags.serve)
        } catch {
            throw .usage("\(error)\n\(usage)")
        }
        if options.showHelp {
            print(usage)
            return 0
        }
        if options.showVersion {
            print("shop-rpc \(version)")
            return 0
        }
        let flags = options.flags
        let scopes = ShopFlags.allowedScopes(in: flags)
        options.engine.allowedScopes = Set(scopes.map(\.rawValue))
        let customer = flags[ShopFlags.customer]
        if customer != nil, scopes.contains(.admin) {
            // The operator's methods act on the whole shop, which a customer's session must not.
            throw .usage("--customer serves one customer and cannot be given with the admin scope\n\(usage)")
        }
        let inventory = try inventorySource(flags)
        let service = try StoreOpening.open(
            StoreOpening.location(flags[ShopFlags.database]), creation: .demoCatalog,
            readOnly: flags[ShopFlags.readOnly], postgresPoolSize: flags[ShopFlags.poolSize])

        var registry = MethodRegistry(ShopMethods.specs(service: service, inventory: inventory, customer: customer, allowedScopes: scopes))
        // rpc.stats: what shoppers searched for and did not find (protocol.md, section 6.2).
        registry.addStatsSection("search") { service.searchStats.snapshot.json }
        if let inventory {
            // rpc.stats: what the inventory client is doing (protocol.md, section 6.2).
            registry.addStatsSection("inventory") { inventory.stats.json }
        }
        // A handler past its deadline may still use these after `run` returns: they outlive it.
        KeptUntilExit.keep(service)
        KeptUntilExit.keep(registry)
        if let inventory { KeptUntilExit.keep(inventory) }
        let reason: StdioServer.ExitReason
        do {
            reason = try StdioServer.run(registry: registry, options: options, identity: identity(serving: scopes, customer: customer))
        } catch {
            throw CommandFailure(status: 2, message: "\(error)")
        }
        let stats = service.stats
        Log.info("store: \(stats.transactions) write transactions for \(stats.operations) write operations")
        return reason.status
    }

    static var usage: String {
        ServerOptions.usage(synopsis: synopsis, flags: ShopFlags.serve)
    }

    /// The inventory client `--inventory-url` and the flags that tune it ask for, or nil.
    /// - Throws: `CommandFailure` (usage) for a URL that is not http(s) with a host, a tuning
    ///   flag without `--inventory-url`, or a client that cannot be made.
    private static func inventorySource(_ flags: ParsedCommandLine) throws(CommandFailure) -> HTTPInventorySource? {
        guard let text = flags[ShopFlags.inventoryURL] else {
            if let stray = ShopFlags.inventoryTuning.first(where: flags.isGiven) {
                throw .usage("\(stray.declaration.name) needs --inventory-url")
            }
            return nil
        }
        guard let url = URL(string: text), HTTPInventorySource.isUsableBaseURL(url) else {
            throw .usage("--inventory-url needs an http:// or https:// URL with a host, got '\(text)'")
        }
        do {
            return try HTTPInventorySource(
                baseURL: url,
                maxConcurrent: flags[ShopFlags.inventoryMaxConcurrent],
                circuitFailures: flags[ShopFlags.inventoryCircuitFailures],
                circuitCoolDownMilliseconds: flags[ShopFlags.inventoryCircuitCoolDown],
                staleMilliseconds: flags[ShopFlags.inventoryStale],
                coalescing: flags[ShopFlags.inventoryCoalesce],
                adaptiveLimit: flags[ShopFlags.inventoryLimit])
        } catch {
            throw .usage("--inventory-url: \(error)")
        }
    }

    /// Who this server says it is, in `rpc.discover` and to MCP hosts; the advice to hosts names
    /// only tools that `scopes` serve, and says whom a customer's session serves.
    private static func identity(serving scopes: Set<ShopScope>, customer: String?) -> ServerIdentity {
        var instructions = "A small shop: browse the catalog and check live inventory"
        if !scopes.contains(.read) && !scopes.contains(.write) {
            instructions += "; this server shows no cart and no order, and changes nothing."
        } else if scopes.contains(.write) {
            instructions += """
                , fill a cart, place orders. Money is in integer cents (priceCents, totalCents). Add items \
                with cart_add and wait for its result before orders_place. orders_place is idempotent per \
                idempotencyKey: on a retry (after a timeout or an error) reuse the same key, never a new one, \
                or the order may be placed twice.
                """
        } else {
            instructions += ", and look at carts and orders; this server changes nothing. Money is in integer cents (priceCents, totalCents)."
        }
        if let customer, scopes.contains(.read) || scopes.contains(.write) {
            instructions += " It serves one customer (\(customer)): the carts and orders are that customer's own."
        }
        instructions += " Every tool has a deadline; inventory_check gives up after \(ShopMethods.inventoryDeadlineMs / 1000) s when the inventory service is slow: say so and offer to try again later."
        return ServerIdentity(name: "shop-rpc", title: "Shop RPC", version: version, instructions: instructions)
    }
}
