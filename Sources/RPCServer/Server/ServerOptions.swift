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

    /// An application-defined option that takes one value.
    public struct ApplicationOption: Sendable {
        public let flag: String
        public let valueName: String
        public let help: String
        public init(flag: String, valueName: String, help: String) {
            self.flag = flag
            self.valueName = valueName
            self.help = help
        }
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
    /// - Throws: `UsageError` for an unknown flag, a missing or malformed value.
    public static func parse(_ arguments: [String], applicationOptions: [ApplicationOption] = []) throws(UsageError) -> ServerOptions {
        var options = ServerOptions()
        var remaining = arguments[...]
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
            case "--framing":
                let name = try value()
                if name == "auto" {
                    options.framing = nil
                } else {
                    guard let framing = Framing(rawValue: name) else { throw UsageError(description: "--framing must be auto, ndjson or lsp") }
                    options.framing = framing
                }
            case "--deadline":
                let (method, milliseconds) = try methodAndMilliseconds(try value(), flag: flag, allowZero: false)
                options.deadlineOverrides.append((method, milliseconds))
            case "--simulate-latency":
                let (method, milliseconds) = try methodAndMilliseconds(try value(), flag: flag, allowZero: true)
                options.engine.simulatedLatencyMs[method] = milliseconds
            case "--max-inflight": options.engine.maxInflight = try positive(try value(), flag: flag)
            case "--max-message-bytes": options.engine.maxMessageBytes = try positive(try value(), flag: flag)
            case "--progress-interval-ms": options.engine.progressIntervalMs = try positive(try value(), flag: flag)
            case "--shutdown-grace-ms": options.engine.shutdownGraceMs = try nonNegative(try value(), flag: flag)
            case "--log-level":
                let name = try value()
                guard let level = Log.Level(name: name) else { throw UsageError(description: "--log-level must be error, warn, info or debug") }
                options.logLevel = level
            case "--trace": options.tracePath = try value()
            default:
                if applicationOptions.contains(where: { $0.flag == flag }) {
                    options.applicationValues[flag] = try value()
                } else {
                    throw UsageError(description: "unknown option \(argument)")
                }
            }
        }
        return options
    }

    /// The usage text, listing the application's options too.
    ///
    /// ```swift
    /// if options.showHelp { print(ServerOptions.usage(program: "hello-rpc")); StdioServer.exitProcess(status: 0) }
    /// ```
    public static func usage(program: String, applicationOptions: [ApplicationOption] = []) -> String {
        var lines = ["usage: \(program) [options]", "", "options:"]
        for option in applicationOptions {
            let synopsis = "  \(option.flag) \(option.valueName)"
            lines.append(synopsis + String(repeating: " ", count: max(0, 34 - synopsis.count)) + option.help)
        }
        lines += [
            "  --framing auto|ndjson|lsp        message framing (default auto: detected from the first byte)",
            "  --deadline METHOD=MS             replace a method's deadline (repeatable)",
            "  --simulate-latency METHOD=MS     delay a method's handler by MS, cancellably (repeatable)",
            "  --max-inflight N                 calls in flight before reading pauses (default 1024)",
            "  --max-message-bytes N            largest accepted message (default 16777216)",
            "  --progress-interval-ms N         period of progress notifications (default 1000)",
            "  --shutdown-grace-ms N            grace period for calls in flight on SIGTERM (default 2000)",
            "  --log-level error|warn|info|debug  stderr verbosity (default warn)",
            "  --trace FILE                     append every message in and out to FILE as JSON lines",
            "  --help, --version",
        ]
        return lines.joined(separator: "\n")
    }

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

