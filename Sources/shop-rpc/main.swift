#if canImport(Glibc)
import Glibc  // exit, write
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials  // URL
import RPCServer
import ShopAPI
import ShopRPCBinding

// shop-rpc: flags, store, method table, run. Everything else lives in RPCServer and ShopAPI.

MallocTuning.limitArenas()

let databaseOption = ServerOptions.ApplicationOption(
    flag: "--db", valueName: "PATH|URI",
    help: "the store: a SQLite file (default: $XDG_DATA_HOME/shop-rpc/shop.sqlite; ':memory:' for a throw-away one) or a postgres:// URI")
let poolOption = ServerOptions.ApplicationOption(
    flag: "--db-pool", valueName: "N",
    help: "PostgreSQL connections per process (default \(ShopService.defaultPostgresPoolSize))")
let inventoryURLOption = ServerOptions.ApplicationOption(
    flag: "--inventory-url", valueName: "URL",
    help: "ask this http(s) inventory service for live stock in inventory.check (GET URL/stock?sku=…)")
let inventoryMaxConcurrentOption = ServerOptions.ApplicationOption(
    flag: "--inventory-max-concurrent", valueName: "N",
    help: "requests outstanding to the inventory service at most; more checks wait in line (default 16)")
/// Writes `shop-rpc: message` and a newline to stderr.
func writeToStandardError(_ message: String) {
    let bytes = Array("shop-rpc: \(message)\n".utf8)
    var written = 0
    while written < bytes.count {
        let n = bytes[written...].withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        if n > 0 { written += n } else if errno != EINTR { return }
    }
}

/// Writes `shop-rpc: message` to stderr and ends the process with `status` (before the server runs).
func exitWithMessage(_ message: String, status: Int32) -> Never {
    writeToStandardError(message)
    exit(status)
}

let inventoryFailuresOption = ServerOptions.ApplicationOption(
    flag: "--inventory-circuit-failures", valueName: "N",
    help: "failures in a row that open the inventory circuit breaker (default \(InventoryCircuitBreaker.defaultFailureThreshold))")
let inventoryCoolDownOption = ServerOptions.ApplicationOption(
    flag: "--inventory-circuit-cooldown-ms", valueName: "MS",
    help: "how long an open circuit refuses checks before one probe (default \(InventoryCircuitBreaker.defaultCoolDownMilliseconds))")
let inventoryStaleOption = ServerOptions.ApplicationOption(
    flag: "--inventory-stale-ms", valueName: "MS",
    help: "when the inventory service cannot answer in time, answer levels up to MS old, marked stale (default 0: never)")
let inventoryLimitOption = ServerOptions.ApplicationOption(
    flag: "--inventory-limit", valueName: "adaptive|fixed",
    help: "adaptive: the request limit follows the service's latency up to --inventory-max-concurrent and hopeless checks are shed at once; fixed: always the maximum, checks wait for their deadline (default adaptive)")
let inventoryCoalesceOption = ServerOptions.ApplicationOption(
    flag: "--inventory-coalesce", valueName: "on|off",
    help: "checks share pending inventory requests for the same SKUs (default on)")
let inventoryOnlyFlags = ["--inventory-max-concurrent", "--inventory-circuit-failures", "--inventory-circuit-cooldown-ms",
                          "--inventory-stale-ms", "--inventory-limit", "--inventory-coalesce"]
let applicationOptions = [databaseOption, poolOption, inventoryURLOption, inventoryMaxConcurrentOption,
                          inventoryFailuresOption, inventoryCoolDownOption, inventoryStaleOption, inventoryLimitOption,
                          inventoryCoalesceOption]

let options: ServerOptions
do {
    options = try ServerOptions.parse(Array(CommandLine.arguments.dropFirst()), applicationOptions: applicationOptions)
} catch {
    exitWithMessage("\(error)\n\(ServerOptions.usage(program: "shop-rpc", applicationOptions: applicationOptions))", status: 2)
}
if options.showHelp {
    print(ServerOptions.usage(program: "shop-rpc", applicationOptions: applicationOptions))
    exit(0)
}
if options.showVersion {
    print("shop-rpc \(version)")
    exit(0)
}

/// An integer application option in `range`, nil if absent; out of range: a message and exit 2.
func integerOption(_ flag: String, in range: ClosedRange<Int>) -> Int? {
    do {
        return try options.applicationInteger(flag, in: range)
    } catch {
        exitWithMessage("\(error)", status: 2)
    }
}

/// An application option that names one of `choices`, nil if absent; another value: a message and exit 2.
func choiceOption<Value>(_ flag: String, _ choices: KeyValuePairs<String, Value>) -> Value? {
    guard let text = options.applicationValues[flag] else { return nil }
    guard let value = choices.first(where: { $0.key == text })?.value else {
        exitWithMessage("\(flag) must be \(choices.map(\.key).joined(separator: " or ")), got '\(text)'", status: 2)
    }
    return value
}

// --inventory-url and the flags that tune it: checked before the store is opened.
var inventorySource: HTTPInventorySource?
if let text = options.applicationValues["--inventory-url"] {
    guard let url = URL(string: text), HTTPInventorySource.isUsableBaseURL(url) else {
        exitWithMessage("--inventory-url needs an http:// or https:// URL with a host, got '\(text)'", status: 2)
    }
    let maxConcurrent = integerOption("--inventory-max-concurrent", in: 1...4096) ?? HTTPInventorySource.defaultMaxConcurrent
    let failures = integerOption("--inventory-circuit-failures", in: 1...1_000_000) ?? InventoryCircuitBreaker.defaultFailureThreshold
    let coolDown = integerOption("--inventory-circuit-cooldown-ms", in: 1...3_600_000) ?? InventoryCircuitBreaker.defaultCoolDownMilliseconds
    let stale = integerOption("--inventory-stale-ms", in: 0...86_400_000) ?? 0
    let adaptive = choiceOption("--inventory-limit", ["adaptive": true, "fixed": false]) ?? true
    let coalesce = choiceOption("--inventory-coalesce", ["on": true, "off": false]) ?? true
    do {
        inventorySource = try HTTPInventorySource(baseURL: url, maxConcurrent: maxConcurrent,
                                                  circuitFailures: failures, circuitCoolDownMilliseconds: coolDown,
                                                  staleMilliseconds: stale, coalescing: coalesce, adaptiveLimit: adaptive)
    } catch {
        exitWithMessage("--inventory-url: \(error)", status: 2)
    }
} else if let flag = inventoryOnlyFlags.first(where: { options.applicationValues[$0] != nil }) {
    exitWithMessage("\(flag) needs --inventory-url", status: 2)
}

let databasePath = options.applicationValues["--db"] ?? ShopService.defaultDatabasePath
if let scheme = ShopService.uriScheme(of: databasePath), !ShopService.postgresSchemes.contains(scheme.lowercased()) {
    // A URI is not a file name: taken as one it would create a directory named "postgres:" and a
    // private store, and several machines would oversell without a warning.
    exitWithMessage("--db \(databasePath): '\(scheme)://' stores are not supported; give a SQLite file path, :memory: or a postgres:// URI", status: 2)
}
let poolSize = integerOption("--db-pool", in: 1...256) ?? ShopService.defaultPostgresPoolSize
let service: ShopService
do {
    service = try ShopService.open(path: databasePath, postgresPoolSize: poolSize)
} catch {
    // The URI may hold a password: name the store by its scheme only.
    let storeName = ShopService.uriScheme(of: databasePath).map { "\($0):// store" } ?? "store at \(databasePath)"
    exitWithMessage("cannot open the \(storeName): \(error)", status: 1)
}
var registry = MethodRegistry(ShopMethods.specs(service: service, inventory: inventorySource))
if let inventorySource {
    // rpc.stats: what the inventory client is doing (protocol.md, section 6.2).
    registry.addStatsSection("inventory") { inventorySource.stats.json }
}
let identity = ServerIdentity(name: "shop-rpc", title: "Shop RPC", version: version, instructions: """
    A small shop: browse the catalog, check live inventory, fill a cart, place orders. Money is in \
    integer cents (priceCents, totalCents). Add items with cart_add and wait for its result before \
    orders_place. orders_place is idempotent per idempotencyKey: on a retry (after a timeout or an \
    error) reuse the same key, never a new one, or the order may be placed twice. Every tool has a \
    deadline; inventory_check gives up after 5 s when the inventory service is slow: say so and \
    offer to try again later.
    """)
do {
    let reason = try StdioServer.run(registry: registry, options: options, identity: identity)
    let stats = service.stats
    Log.info("store: \(stats.transactions) write transactions for \(stats.operations) write operations")
    // _exit after a flush, not exit(): a handler past its deadline may still run on another thread.
    StdioServer.exitProcess(status: reason.status)
} catch {
    writeToStandardError("\(error)")
    StdioServer.exitProcess(status: 2)
}
