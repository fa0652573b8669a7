/// The command line of a server built on this engine (protocol.md, section 9), parsed without
/// side effects so it can be tested. Applications add their own options (e.g. `--db PATH`).
///
/// ```swift
/// let dbOption = ServerOptions.ApplicationOption(flag: "--db", valueName: "PATH", help: "the database file")
/// let options: ServerOptions
/// do {
///     options = try ServerOptions.parse(Array(CommandLine.arguments.dropFirst()), applicationOptions: [dbOption])
/// } catch {
///     FileHandle.standardError.write(Data("my-server: \(error)\n\(ServerOptions.usage(program: "my-server"))\n".utf8))
///     StdioServer.exitProcess(status: 2)
/// }
/// let path = options.applicationValues["--db"] ?? "notes.sqlite"
/// ```
public struct ServerOptions: Sendable {
    public var framing: Framing?
    public var engine = EngineConfiguration()
    public var deadlineOverrides: [(method: String, milliseconds: Int)] = []
    public var logLevel = Log.Level.warn
    public var tracePath: String?
    /// Values of application options, by flag (`"--db": "/tmp/x.sqlite"`).
    public var applicationValues: [String: String] = [:]
    public var showHelp = false
    public var showVersion = false

    /// An application-defined option: one that takes a value, or a switch that takes none.
    public struct ApplicationOption: Sendable {
        public let flag: String
        /// How the usage names the value; empty for a switch.
        public let valueName: String
        public let help: String
        /// False for a switch.
        let takesValue: Bool

        /// An option that takes one value (`--db PATH`, `--db=PATH`).
        public init(flag: String, valueName: String, help: String) {
            self.flag = flag
            self.valueName = valueName
            self.help = help
            takesValue = true
        }

        /// A switch, which takes no value (`--read-only`); once given, `applicationValues[flag]`
        /// is `""`. A value given to it (`--read-only=yes`) is a usage error.
        ///
        /// ```swift
        /// let readOnly = ServerOptions.ApplicationOption(flag: "--read-only", help: "serve only what reads")
        /// var options = try ServerOptions.parse(arguments, applicationOptions: [readOnly])
        /// if options.applicationValues["--read-only"] != nil { options.engine.allowedScopes = ["read"] }
        /// ```
        public init(flag: String, help: String) {
            self.flag = flag
            valueName = ""
            self.help = help
            takesValue = false
        }

        /// How the usage lists it.
        var synopsis: String { takesValue ? "\(flag) \(valueName)" : flag }
    }

    /// A command line that cannot be run; `description` says why, for stderr.
    public struct UsageError: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    public init() {}

    /// Parses `arguments` (without the program name). Accepts `--flag value` and `--flag=value`.
    /// `--help` and `--version` only set `showHelp`/`showVersion`; the program prints and exits.
    ///
    /// ```swift
    /// let options = try ServerOptions.parse(["--deadline", "hello.slow=50", "--log-level", "info"])
    /// ```
    /// Every flag takes one value (or, for a switch, none) and may be given once, except those
    /// whose help says "repeatable" (`--deadline`, `--simulate-latency`): a second `--trace` or
    /// `--db` is refused rather than silently replacing the first.
    /// - Throws: `UsageError` for an unknown flag, a missing or malformed value, or a flag that
    ///   is not repeatable given twice.
    public static func parse(_ arguments: [String], applicationOptions: [ApplicationOption] = []) throws(UsageError) -> ServerOptions {
        var options = ServerOptions()
        var remaining = arguments[...]
        var given: Set<String> = []
        func once(_ flag: String) throws(UsageError) {
            guard given.insert(flag).inserted else { throw UsageError(description: "\(flag) is given twice") }
        }
        while let argument = remaining.popFirst() {
            var flag = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                flag = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst() else { throw UsageError(description: "\(flag) needs a value") }
                return next
            }
            switch flag {
            case "-h", "--help": options.showHelp = true
            case "--version": options.showVersion = true
            default:
                if let option = engineOptions.first(where: { $0.flag == flag }) {
                    if !option.repeatable { try once(flag) }
                    try option.apply(&options, try value())
                } else if let option = applicationOptions.first(where: { $0.flag == flag }) {
                    try once(flag)
                    if option.takesValue {
                        options.applicationValues[flag] = try value()
                    } else {
                        guard inlineValue == nil else { throw UsageError(description: "\(flag) takes no value") }
                        options.applicationValues[flag] = ""
                    }
                } else {
                    throw UsageError(description: "unknown option \(argument)")
                }
            }
        }
        return options
    }

    /// The usage text, listing the application's options too: one line per option, its synopsis
    /// and its help in two columns at least two spaces apart.
    ///
    /// ```swift
    /// if options.showHelp { print(ServerOptions.usage(program: "hello-rpc")); StdioServer.exitProcess(status: 0) }
    /// ```
    public static func usage(program: String, applicationOptions: [ApplicationOption] = []) -> String {
        usage(synopsis: "\(program) [options]", applicationOptions: applicationOptions)
    }

    /// `usage(program:applicationOptions:)` with a synopsis line of the program's own (after
    /// `usage: `), for a program with several commands.
    package static func usage(synopsis: String, applicationOptions: [ApplicationOption]) -> String {
        let rows = applicationOptions.map { HelpColumns.Row(synopsis: $0.synopsis, help: $0.help) }
            + engineOptions.map { HelpColumns.Row(synopsis: "\($0.flag) \($0.valueName)", help: $0.help) }
            + [HelpColumns.Row(synopsis: "--help, --version", help: "print this text, or the version, and exit")]
        return (["usage: \(synopsis)", "", "options:"] + HelpColumns.lines(rows)).joined(separator: "\n")
    }

    // MARK: - The engine's own options

    /// One engine flag: spelled once, its help naming the default the engine really uses, and
    /// what its value does to the options.
    private struct EngineOption: Sendable {
        let flag: String
        let valueName: String
        let help: String
        /// Whether it may be given more than once (each use adds to the others); the help says so.
        var repeatable = false
        let apply: @Sendable (inout ServerOptions, String) throws(UsageError) -> Void
    }

    /// Every engine flag, in the order the usage lists them.
    private static let engineOptions: [EngineOption] = {
        let defaults = EngineConfiguration()
        return [
            EngineOption(flag: "--framing", valueName: "auto|ndjson|lsp", help: "message framing (default auto: detected from the first byte)") { options, name throws(UsageError) in
                if name == "auto" {
                    options.framing = nil
                } else {
                    guard let framing = Framing(rawValue: name) else { throw UsageError(description: "--framing must be auto, ndjson or lsp") }
                    options.framing = framing
                }
            },
            EngineOption(flag: "--deadline", valueName: "METHOD=MS", help: "replace a method's deadline (repeatable)", repeatable: true) { options, text throws(UsageError) in
                let (method, milliseconds) = try methodAndMilliseconds(text, flag: "--deadline", allowZero: false)
                options.deadlineOverrides.append((method, milliseconds))
            },
            EngineOption(flag: "--simulate-latency", valueName: "METHOD=MS", help: "delay a method's handler by MS, cancellably (repeatable)", repeatable: true) { options, text throws(UsageError) in
                let (method, milliseconds) = try methodAndMilliseconds(text, flag: "--simulate-latency", allowZero: true)
                options.engine.simulatedLatencyMs[method] = milliseconds
            },
            EngineOption(flag: "--max-inflight", valueName: "N", help: "calls in flight before reading pauses (default \(defaults.maxInflight))") { options, text throws(UsageError) in
                options.engine.maxInflight = try positive(text, flag: "--max-inflight")
            },
            EngineOption(flag: "--max-message-bytes", valueName: "N", help: "largest accepted message (default \(defaults.maxMessageBytes))") { options, text throws(UsageError) in
                options.engine.maxMessageBytes = try positive(text, flag: "--max-message-bytes")
            },
            EngineOption(flag: "--progress-interval-ms", valueName: "N", help: "period of progress notifications (default \(defaults.progressIntervalMs))") { options, text throws(UsageError) in
                options.engine.progressIntervalMs = try positive(text, flag: "--progress-interval-ms")
            },
            EngineOption(flag: "--shutdown-grace-ms", valueName: "N", help: "grace period for calls in flight on SIGTERM (default \(defaults.shutdownGraceMs))") { options, text throws(UsageError) in
                options.engine.shutdownGraceMs = try nonNegative(text, flag: "--shutdown-grace-ms")
            },
            EngineOption(flag: "--log-level", valueName: "error|warn|info|debug", help: "stderr verbosity (default \(ServerOptions().logLevel))") { options, name throws(UsageError) in
                guard let level = Log.Level(name: name) else { throw UsageError(description: "--log-level must be error, warn, info or debug") }
                options.logLevel = level
            },
            EngineOption(flag: "--trace", valueName: "FILE", help: "append every message in and out to FILE as JSON lines") { options, path throws(UsageError) in
                options.tracePath = path
            },
        ]
    }()

    private static func methodAndMilliseconds(_ text: String, flag: String, allowZero: Bool) throws(UsageError) -> (String, Int) {
        guard let equals = text.lastIndex(of: "="), equals != text.startIndex else {
            throw UsageError(description: "\(flag) takes METHOD=MS, got '\(text)'")
        }
        let method = String(text[..<equals])
        let number = String(text[text.index(after: equals)...])
        let milliseconds = allowZero ? try nonNegative(number, flag: flag) : try positive(number, flag: flag)
        return (method, milliseconds)
    }

    /// The largest number any numeric flag takes (2^40: about 35 years in milliseconds, 1 TiB in
    /// bytes), so no arithmetic on a flag's value can overflow.
    package static let maxFlagNumber = 1 << 40

    private static func positive(_ text: String, flag: String) throws(UsageError) -> Int {
        try integer(text, flag: flag, in: 1...maxFlagNumber)
    }

    private static func nonNegative(_ text: String, flag: String) throws(UsageError) -> Int {
        try integer(text, flag: flag, in: 0...maxFlagNumber)
    }

    private static func integer(_ text: String, flag: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(description: "\(flag) needs an integer from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return number
    }

    /// The value of an application option that takes an integer, checked against `range`; nil
    /// when the flag was not given.
    /// - Throws: `UsageError` worded like the engine's own numeric flags.
    ///
    /// ```swift
    /// let poolSize = try options.applicationInteger("--pool", in: 1...64) ?? 4
    /// ```
    public func applicationInteger(_ flag: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = applicationValues[flag] else { return nil }
        return try Self.integer(text, flag: flag, in: range)
    }
}

