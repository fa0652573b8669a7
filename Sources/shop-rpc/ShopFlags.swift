import RPCServer
import ShopAPI
import ShopRPCBinding

/// shop-rpc's own flags (the engine's are `ServerOptions`'), each declared once as a typed
/// `CommandFlag`: its spelling, its help, the default the code really uses (which the help states)
/// and how its text is read. The parser checks every value, so a command reads typed values that
/// cannot be wrong; the help and the code that reads the value use the same declaration. Each
/// command's table of flags is here too (`serve`, `importFlags`, `exportFlags`).
enum ShopFlags {
    static let database = CommandFlag<String?>(
        "--db", valueName: "PATH|URI",
        help: "the store: a SQLite file (default: $XDG_DATA_HOME/shop-rpc/shop.sqlite; ':memory:' for a throw-away one) or a postgres:// URI")
    static let poolSize = integer(
        "--db-pool", help: "PostgreSQL connections per process", range: 1...256, default: ShopService.defaultPostgresPoolSize)
    static let allow = CommandFlag<[ShopScope]>(
        "--allow", valueName: "SCOPES",
        help: "the scopes of the methods served: browse (catalog and inventory only), read (browse, and carts and orders looked at), write (carts changed, orders placed), admin (the operator's) (comma-separated; default \(ShopScope.defaultAllowed.map(\.rawValue).joined(separator: ",")))",
        absent: ShopScope.defaultAllowed) { text throws(ServerOptions.UsageError) in
        try text.split(separator: ",", omittingEmptySubsequences: false).map { name throws(ServerOptions.UsageError) in
            guard let scope = ShopScope(rawValue: String(name)) else {
                throw ServerOptions.UsageError(
                    "--allow: unknown scope '\(name)'; the scopes are \(ShopScope.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return scope
        }
    }
    static let readOnly = CommandFlag<Bool>(
        switch: "--read-only", help: "serve the read scope only: the same as --allow read, and it wins over --allow")
    static let customer = CommandFlag<String?>(
        "--customer", valueName: "ID",
        help: "serve one customer: its own carts and orders only, fixed for the process (nothing a client sends changes it); without it the whole shop"
    ) { text throws(ServerOptions.UsageError) in
        guard CustomerKey.isValidCustomer(text) else {
            throw ServerOptions.UsageError(
                "--customer needs an identifier: non-empty, at most \(CustomerKey.maxBytes) bytes, no control characters")
        }
        return text
    }
    static let inventoryURL = CommandFlag<String?>(
        "--inventory-url", valueName: "URL",
        help: "ask this http(s) inventory service for live stock in inventory.check (GET URL/stock?sku=…)")
    static let inventoryMaxConcurrent = integer(
        "--inventory-max-concurrent", help: "requests outstanding to the inventory service at most; more checks wait in line",
        range: 1...4096, default: HTTPInventorySource.defaultMaxConcurrent)
    static let inventoryCircuitFailures = integer(
        "--inventory-circuit-failures", help: "failures in a row that open the inventory circuit breaker",
        range: 1...1_000_000, default: InventoryCircuitBreaker.defaultFailureThreshold)
    static let inventoryCircuitCoolDown = integer(
        "--inventory-circuit-cooldown-ms", valueName: "MS", help: "how long an open circuit refuses checks before one probe",
        range: 1...3_600_000, default: InventoryCircuitBreaker.defaultCoolDownMilliseconds)
    static let inventoryStale = integer(
        "--inventory-stale-ms", valueName: "MS",
        help: "when the inventory service cannot answer in time, answer levels up to MS old, marked stale",
        range: 0...86_400_000, default: 0, defaultMeaning: "never")
    static let inventoryLimit = choice(
        "--inventory-limit",
        help: "adaptive: the request limit follows the service's latency up to --inventory-max-concurrent and hopeless checks are shed at once; fixed: always the maximum, checks wait for their deadline",
        choices: ["adaptive": true, "fixed": false])
    static let inventoryCoalesce = choice(
        "--inventory-coalesce", help: "checks share pending inventory requests for the same SKUs", choices: ["on": true, "off": false])

    /// The flags that tune the inventory client, and so mean nothing without `--inventory-url`.
    static let inventoryTuning: [any AnyCommandFlag] = [
        inventoryMaxConcurrent, inventoryCircuitFailures, inventoryCircuitCoolDown, inventoryStale, inventoryLimit, inventoryCoalesce,
    ]

    // MARK: - Catalog files (import and export)

    /// `export`'s format when `--format` is not given.
    static let exportDefaultFormat = CatalogFileFormat.csv
    static let format = CommandFlag<CatalogFileFormat?>(
        "--format", help: "the file's format (default: import: FILE's extension, .csv, .ndjson or .jsonl; export: \(exportDefaultFormat.rawValue))",
        choices: ["csv": .csv, "ndjson": .ndjson], absent: nil)
    static let from = CommandFlag<CatalogPreset?>(
        "--from", help: "FILE is this platform's product CSV export, read as the platform writes it (protocol.md, section 11)",
        choices: ["shopify": .shopify, "woocommerce": .woocommerce, "medusa": .medusa], absent: nil)
    static let currency = CommandFlag<String?>(
        "--currency", valueName: "CODE",
        help: "with --from: the store's currency (ISO 4217, such as EUR): Shopify and WooCommerce prices are in it, and it chooses Medusa's price column (default: the store's, and Medusa's first price column)"
    ) { text throws(ServerOptions.UsageError) in
        guard text.utf8.count == 3, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else {
            throw ServerOptions.UsageError("--currency needs an ISO 4217 code, three capital letters such as EUR, got '\(text)'")
        }
        return text
    }
    static let replace = CommandFlag<Bool>(switch: "--replace", help: "the file is the whole catalog: archive every product it does not list")
    static let dryRun = CommandFlag<Bool>(switch: "--dry-run", help: "check every row and print the summary, writing nothing")
    static let strict = CommandFlag<Bool>(switch: "--strict", help: "every warning (see the summary's warnings) is an error: exit 1, nothing written")
    static let map = CommandFlag<CatalogColumnMapping>(
        "--map", valueName: "'NAME=column,…'",
        help: "read the file's column NAME as column (sku, name, description, category, price, priceCents, currency, stock); NAME= skips it",
        absent: .none
    ) { text throws(ServerOptions.UsageError) in
        do {
            return try CatalogColumnMapping(parsing: text)
        } catch {
            throw ServerOptions.UsageError("--map: \(error)")
        }
    }
    static let ignoreUnknown = CommandFlag<Bool>(
        switch: "--ignore-unknown", help: "skip columns that are not catalog columns (listed once in the warnings) instead of refusing the file")
    static let delimiter = CommandFlag<CSVDelimiter?>(
        "--delimiter", help: "CSV only: the field separator (default: the one the header line uses most)",
        choices: [",": .comma, ";": .semicolon, "tab": .tab], absent: nil)
    static let encoding = CommandFlag<TextEncoding>(
        "--encoding", valueName: "NAME",
        help: "the file's character encoding: utf-8, windows-1252 (what Excel on Windows saves) or latin-1 (default utf-8)",
        absent: .utf8
    ) { text throws(ServerOptions.UsageError) in
        guard let encoding = TextEncoding(rawValue: text) else {
            throw ServerOptions.UsageError("--encoding must be utf-8, windows-1252 or latin-1, got '\(text)'")
        }
        return encoding
    }
    static let since = CommandFlag<OrderTime?>(
        "--since", valueName: "ISO-8601",
        help: "orders and ledger only: those placed or made at or after this time (2026-11-23T10:00:00Z, or a date: 2026-11-23)"
    ) { text throws(ServerOptions.UsageError) in
        guard let time = OrderTime(iso8601: text) else {
            throw ServerOptions.UsageError("--since needs an ISO 8601 time (2026-11-23T10:00:00Z) or date (2026-11-23), got '\(text)'")
        }
        return time
    }

    // MARK: - Each command's table, in the order its help lists them

    /// `shop-rpc serve`'s own flags (the engine's follow them: `ServerOptions.parse`).
    static let serve: [any AnyCommandFlag] = [database, poolSize, allow, readOnly, customer, inventoryURL] + inventoryTuning
    /// `shop-rpc import`'s flags.
    static let importFlags: [any AnyCommandFlag] = [database, format, from, currency, replace, dryRun, strict, map, ignoreUnknown, delimiter, encoding]
    /// `shop-rpc export`'s flags.
    static let exportFlags: [any AnyCommandFlag] = [database, format, since]

    /// The scopes to serve: `--read-only` wins over `--allow`; `read` serves `browse` too.
    static func allowedScopes(in parsed: ParsedCommandLine) -> Set<ShopScope> {
        ShopScope.served(parsed[readOnly] ? [.read] : parsed[allow])
    }

    // MARK: - Kinds of flag, with the help saying their range and default

    /// An integer flag whose help ends with its range and default (`(1…256; default 4)`);
    /// `defaultMeaning`, if any, follows the default (`0: never`).
    private static func integer(_ name: String, valueName: String = "N", help: String, range: ClosedRange<Int>, default value: Int,
                                defaultMeaning: String? = nil) -> CommandFlag<Int> {
        let shownDefault = defaultMeaning.map { "\(value): \($0)" } ?? "\(value)"
        return CommandFlag(name, valueName: valueName, help: "\(help) (\(range.lowerBound)…\(range.upperBound); default \(shownDefault))",
                           range: range, absent: value)
    }

    /// A flag naming one of `choices`, the first the default, which its help states.
    private static func choice<Value: Sendable>(_ name: String, help: String, choices: KeyValuePairs<String, Value>) -> CommandFlag<Value> {
        CommandFlag(name, help: "\(help) (default \(choices[choices.startIndex].key))", choices: choices, absent: choices[choices.startIndex].value)
    }
}
