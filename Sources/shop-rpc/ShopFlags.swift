import RPCServer
import ShopAPI
import ShopRPCBinding

/// One of shop-rpc's own flags (the engine's own are `ServerOptions`'). Each is declared once, in
/// `ShopFlags`: its spelling, its help, and the default the code really uses, which the help
/// states; the parser, the help and the code that reads the value all use that one declaration.
protocol ShopFlag: Sendable {
    var option: ServerOptions.ApplicationOption { get }
    /// Whether the flag tunes the inventory client, and so means nothing without `--inventory-url`.
    var needsInventoryURL: Bool { get }
}

extension ShopFlag {
    var flag: String { option.flag }
}

/// A flag whose value is any text (a path, a URI, a URL).
struct TextFlag: ShopFlag {
    let option: ServerOptions.ApplicationOption
    let needsInventoryURL = false

    init(_ flag: String, valueName: String, help: String) {
        option = .init(flag: flag, valueName: valueName, help: help)
    }

    /// The value given, or nil.
    func value(in options: ServerOptions) -> String? {
        options.applicationValues[flag]
    }
}

/// A flag whose value is an integer in `range`, `defaultValue` when absent.
struct IntegerFlag: ShopFlag {
    let option: ServerOptions.ApplicationOption
    let range: ClosedRange<Int>
    let defaultValue: Int
    let needsInventoryURL: Bool

    /// `defaultMeaning`, if any, follows the default in the help ("0: never").
    init(_ flag: String, valueName: String = "N", help: String, range: ClosedRange<Int>, defaultValue: Int,
         defaultMeaning: String? = nil, needsInventoryURL: Bool = false) {
        let shownDefault = defaultMeaning.map { "\(defaultValue): \($0)" } ?? "\(defaultValue)"
        option = .init(flag: flag, valueName: valueName, help: "\(help) (\(range.lowerBound)…\(range.upperBound); default \(shownDefault))")
        self.range = range
        self.defaultValue = defaultValue
        self.needsInventoryURL = needsInventoryURL
    }

    /// The value given, or the default; a value out of range or not an integer prints why and exits 2.
    func value(in options: ServerOptions) -> Int {
        do {
            return try options.applicationInteger(flag, in: range) ?? defaultValue
        } catch {
            exitWithMessage("\(error)", status: 2)
        }
    }
}

/// A flag whose value is one of a few names, each meaning a `Value`; the first is the default.
struct ChoiceFlag<Value: Sendable>: ShopFlag {
    let option: ServerOptions.ApplicationOption
    let choices: KeyValuePairs<String, Value>
    let needsInventoryURL: Bool

    init(_ flag: String, help: String, choices: KeyValuePairs<String, Value>, needsInventoryURL: Bool = false) {
        let names = choices.map(\.key)
        option = .init(flag: flag, valueName: names.joined(separator: "|"), help: "\(help) (default \(names[0]))")
        self.choices = choices
        self.needsInventoryURL = needsInventoryURL
    }

    /// The value of the name given, or of the default; another name prints why and exits 2.
    func value(in options: ServerOptions) -> Value {
        guard let text = options.applicationValues[flag] else { return choices[choices.startIndex].value }
        guard let value = choices.first(where: { $0.key == text })?.value else {
            exitWithMessage("\(flag) must be \(choices.map(\.key).joined(separator: " or ")), got '\(text)'", status: 2)
        }
        return value
    }
}

/// A flag whose value is a comma-separated list of names from `choices` (at least one),
/// `defaultValue` when absent. `itemName` says what a name is, in messages ("scope").
struct ListFlag: ShopFlag {
    let option: ServerOptions.ApplicationOption
    let itemName: String
    let choices: [String]
    let defaultValue: [String]
    let needsInventoryURL = false

    init(_ flag: String, valueName: String, help: String, itemName: String, choices: [String], defaultValue: [String]) {
        option = .init(flag: flag, valueName: valueName, help: "\(help) (comma-separated; default \(defaultValue.joined(separator: ",")))")
        self.itemName = itemName
        self.choices = choices
        self.defaultValue = defaultValue
    }

    /// The names given, or the default; an empty name, or one not among `choices`, prints why
    /// and exits 2.
    func value(in options: ServerOptions) -> [String] {
        guard let text = options.applicationValues[flag] else { return defaultValue }
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        if let unknown = names.first(where: { !choices.contains($0) }) {
            exitWithMessage("\(flag): unknown \(itemName) '\(unknown)'; the \(itemName)s are \(choices.joined(separator: ", "))", status: 2)
        }
        return names
    }
}

/// A flag whose value is one of a few names, each meaning a `Value`, with no default value: when
/// it is absent the command decides (`defaultMeaning` says how, in the help).
struct OptionalChoiceFlag<Value: Sendable>: ShopFlag {
    let option: ServerOptions.ApplicationOption
    let choices: KeyValuePairs<String, Value>
    let needsInventoryURL = false

    init(_ flag: String, help: String, choices: KeyValuePairs<String, Value>, defaultMeaning: String) {
        option = .init(flag: flag, valueName: choices.map(\.key).joined(separator: "|"), help: "\(help) (default: \(defaultMeaning))")
        self.choices = choices
    }

    /// The value of the name given, or nil; another name prints why and exits 2.
    func value(in options: ServerOptions) -> Value? {
        guard let text = options.applicationValues[flag] else { return nil }
        guard let value = choices.first(where: { $0.key == text })?.value else {
            exitWithMessage("\(flag) must be \(choices.map(\.key).joined(separator: " or ")), got '\(text)'", status: 2)
        }
        return value
    }
}

/// A flag that takes no value: given or not.
struct SwitchFlag: ShopFlag {
    let option: ServerOptions.ApplicationOption
    let needsInventoryURL = false

    init(_ flag: String, help: String) {
        option = .init(flag: flag, help: help)
    }

    /// Whether the flag was given.
    func isSet(in options: ServerOptions) -> Bool {
        options.applicationValues[flag] != nil
    }
}

/// Every flag of `shop-rpc serve`, in the order its help lists them, and those of the other
/// commands (`import`, `export`), which share `--db`.
enum ShopFlags {
    static let database = TextFlag(
        "--db", valueName: "PATH|URI",
        help: "the store: a SQLite file (default: $XDG_DATA_HOME/shop-rpc/shop.sqlite; ':memory:' for a throw-away one) or a postgres:// URI")
    static let poolSize = IntegerFlag(
        "--db-pool", help: "PostgreSQL connections per process", range: 1...256, defaultValue: ShopService.defaultPostgresPoolSize)
    static let allow = ListFlag(
        "--allow", valueName: "SCOPES",
        help: "the scopes of the methods served: read (catalog, inventory, carts and orders looked at), write (carts changed, orders placed), admin (the operator's)",
        itemName: "scope", choices: ShopScope.allCases.map(\.rawValue), defaultValue: ShopScope.defaultAllowed.map(\.rawValue))
    static let readOnly = SwitchFlag(
        "--read-only", help: "serve the read scope only: the same as --allow read, and it wins over --allow")
    static let inventoryURL = TextFlag(
        "--inventory-url", valueName: "URL",
        help: "ask this http(s) inventory service for live stock in inventory.check (GET URL/stock?sku=…)")
    static let inventoryMaxConcurrent = IntegerFlag(
        "--inventory-max-concurrent", help: "requests outstanding to the inventory service at most; more checks wait in line",
        range: 1...4096, defaultValue: HTTPInventorySource.defaultMaxConcurrent, needsInventoryURL: true)
    static let inventoryCircuitFailures = IntegerFlag(
        "--inventory-circuit-failures", help: "failures in a row that open the inventory circuit breaker",
        range: 1...1_000_000, defaultValue: InventoryCircuitBreaker.defaultFailureThreshold, needsInventoryURL: true)
    static let inventoryCircuitCoolDown = IntegerFlag(
        "--inventory-circuit-cooldown-ms", valueName: "MS", help: "how long an open circuit refuses checks before one probe",
        range: 1...3_600_000, defaultValue: InventoryCircuitBreaker.defaultCoolDownMilliseconds, needsInventoryURL: true)
    static let inventoryStale = IntegerFlag(
        "--inventory-stale-ms", valueName: "MS",
        help: "when the inventory service cannot answer in time, answer levels up to MS old, marked stale",
        range: 0...86_400_000, defaultValue: 0, defaultMeaning: "never", needsInventoryURL: true)
    static let inventoryLimit = ChoiceFlag(
        "--inventory-limit",
        help: "adaptive: the request limit follows the service's latency up to --inventory-max-concurrent and hopeless checks are shed at once; fixed: always the maximum, checks wait for their deadline",
        choices: ["adaptive": true, "fixed": false], needsInventoryURL: true)
    static let inventoryCoalesce = ChoiceFlag(
        "--inventory-coalesce", help: "checks share pending inventory requests for the same SKUs",
        choices: ["on": true, "off": false], needsInventoryURL: true)

    // MARK: - Catalog files (import and export)

    static let format = OptionalChoiceFlag(
        "--format", help: "the file's format", choices: ["csv": CatalogFileFormat.csv, "ndjson": .ndjson],
        defaultMeaning: "import: FILE's extension, .csv, .ndjson or .jsonl; export: csv")
    static let replace = SwitchFlag("--replace", help: "the file is the whole catalog: archive every product it does not list")
    static let dryRun = SwitchFlag("--dry-run", help: "check every row and print the summary, writing nothing")
    static let since = TextFlag(
        "--since", valueName: "ISO-8601", help: "orders only: those placed at or after this time (2026-11-23T10:00:00Z, or a date: 2026-11-23)")

    /// `shop-rpc import`'s flags, in the order its help lists them.
    static let importFlags: [any ShopFlag] = [database, format, replace, dryRun]
    /// `shop-rpc export`'s flags, in the order its help lists them.
    static let exportFlags: [any ShopFlag] = [database, format, since]

    static let all: [any ShopFlag] = [
        database, poolSize, allow, readOnly, inventoryURL, inventoryMaxConcurrent, inventoryCircuitFailures, inventoryCircuitCoolDown,
        inventoryStale, inventoryLimit, inventoryCoalesce,
    ]

    static var applicationOptions: [ServerOptions.ApplicationOption] { all.map(\.option) }

    /// The scopes to serve: `--read-only` wins over `--allow`, whose names are checked either way
    /// (an unknown one prints why and exits 2).
    static func allowedScopes(in options: ServerOptions) -> Set<ShopScope> {
        let allowed = Set(allow.value(in: options).compactMap(ShopScope.init(rawValue:)))
        return readOnly.isSet(in: options) ? [.read] : allowed
    }
}
