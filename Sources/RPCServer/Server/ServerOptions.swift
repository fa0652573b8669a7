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
    /// The whole command line as parsed: the value of every flag, the application's typed ones
    /// (`parse(_:flags:)`) and the engine's.
    public var flags = ParsedCommandLine()
    public var showHelp = false
    public var showVersion = false

    /// An application-defined option: one that takes a value, or a switch that takes none.
    public struct ApplicationOption: Sendable {
        public let flag: String
        /// How the usage names the value; empty for a switch.
        public let valueName: String
        public let help: String
        /// The option as a typed flag: a `CommandFlag<String?>`, or a `CommandFlag<Bool>` for a switch.
        let commandFlag: any AnyCommandFlag

        /// An option that takes one value (`--db PATH`, `--db=PATH`).
        public init(flag: String, valueName: String, help: String) {
            self.flag = flag
            self.valueName = valueName
            self.help = help
            commandFlag = CommandFlag<String?>(flag, valueName: valueName, help: help)
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
            commandFlag = CommandFlag<Bool>(switch: flag, help: help)
        }
    }

    /// A command line that cannot be run; `description` says why, for stderr.
    public struct UsageError: Error, CustomStringConvertible, Equatable {
        public let description: String

        /// A usage error saying `description` (a flag's own reading of its value throws one).
        public init(_ description: String) {
            self.description = description
        }
    }

    public init() {}

    /// Parses `arguments` (without the program name) with `ParsedCommandLine.parse`: the engine's
    /// flags, `--version`, and the application's options. `--help` and `--version` only set
    /// `showHelp`/`showVersion`; the program prints and exits. A switch given is
    /// `applicationValues[flag] == ""`.
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
        var options = try parse(arguments, flags: applicationOptions.map(\.commandFlag))
        for option in applicationOptions where options.flags.isGiven(option.commandFlag) {
            options.applicationValues[option.flag] = (option.commandFlag as? CommandFlag<String?>).flatMap { options.flags[$0] } ?? ""
        }
        return options
    }

    /// Parses `arguments` (without the program name) against the engine's flags, `--version` and
    /// the application's own typed `flags`, whose values are then in `flags` (`options.flags[pool]`).
    /// `--help` and `--version` only set `showHelp`/`showVersion`; the program prints and exits.
    ///
    /// ```swift
    /// let pool = CommandFlag<Int>("--pool", help: "connections (default 4)", range: 1...64, absent: 4)
    /// let options = try ServerOptions.parse(Array(CommandLine.arguments.dropFirst()), flags: [pool])
    /// let connections = options.flags[pool]
    /// ```
    /// - Throws: `UsageError`, as `ParsedCommandLine.parse` says.
    public static func parse(_ arguments: [String], flags: [any AnyCommandFlag]) throws(UsageError) -> ServerOptions {
        let parsed = try ParsedCommandLine.parse(arguments, flags: flags + EngineFlags.all + [EngineFlags.version])
        var options = ServerOptions()
        options.flags = parsed
        options.showHelp = parsed.showHelp
        options.showVersion = parsed[EngineFlags.version]
        options.framing = parsed[EngineFlags.framing]
        options.deadlineOverrides = parsed[EngineFlags.deadline]
        options.engine.simulatedLatencyMs = Dictionary(parsed[EngineFlags.simulateLatency], uniquingKeysWith: { _, last in last })
        options.engine.maxInflight = parsed[EngineFlags.maxInflight]
        options.engine.maxMessageBytes = parsed[EngineFlags.maxMessageBytes]
        options.engine.progressIntervalMs = parsed[EngineFlags.progressInterval]
        options.engine.shutdownGraceMs = parsed[EngineFlags.shutdownGrace]
        options.logLevel = parsed[EngineFlags.logLevel]
        options.tracePath = parsed[EngineFlags.trace]
        return options
    }

    /// The usage text, listing the application's options too: one line per option, its synopsis
    /// and its help in two columns at least two spaces apart.
    ///
    /// ```swift
    /// if options.showHelp { print(ServerOptions.usage(program: "hello-rpc")); StdioServer.exitProcess(status: 0) }
    /// ```
    public static func usage(program: String, applicationOptions: [ApplicationOption] = []) -> String {
        usage(synopsis: "\(program) [options]", flags: applicationOptions.map(\.commandFlag))
    }

    /// The usage text of a program whose own flags are typed (`parse(_:flags:)`): theirs first,
    /// then the engine's, one line each, in two columns.
    public static func usage(program: String, flags: [any AnyCommandFlag]) -> String {
        usage(synopsis: "\(program) [options]", flags: flags)
    }

    /// `usage(program:flags:)` with a synopsis line of the program's own (after `usage: `), for a
    /// program with several commands.
    package static func usage(synopsis: String, flags: [any AnyCommandFlag]) -> String {
        let rows = (flags + EngineFlags.all).map { HelpColumns.Row($0.declaration) }
            + [HelpColumns.Row(synopsis: "--help, --version", help: "print this text, or the version, and exit")]
        return (["usage: \(synopsis)", "", "options:"] + HelpColumns.lines(rows)).joined(separator: "\n")
    }

    /// The largest number any numeric flag takes (2^40: about 35 years in milliseconds, 1 TiB in
    /// bytes), so no arithmetic on a flag's value can overflow.
    package static let maxFlagNumber = 1 << 40

    /// The value of an application option that takes an integer, checked against `range`; nil
    /// when the flag was not given.
    /// - Throws: `UsageError` worded like the engine's own numeric flags.
    ///
    /// ```swift
    /// let poolSize = try options.applicationInteger("--pool", in: 1...64) ?? 4
    /// ```
    public func applicationInteger(_ flag: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = applicationValues[flag] else { return nil }
        return try CommandFlagDeclaration.integer(text, flag: flag, in: range)
    }
}

