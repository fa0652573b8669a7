/// The engine's own flags, each declared once, typed: its spelling, its help naming the default
/// the engine really uses, and how its text becomes a value (`ServerOptions.parse` reads them into
/// the options). Every numeric flag takes at most `ServerOptions.maxFlagNumber`.
package enum EngineFlags {
    private static let defaults = EngineConfiguration()

    package static let framing = CommandFlag<Framing?>(
        "--framing", help: "message framing (default auto: detected from the first byte)",
        choices: ["auto": nil, "ndjson": .ndjson, "lsp": .lsp], absent: nil)
    package static let deadline = CommandFlag<[(method: String, milliseconds: Int)]>(
        repeatable: "--deadline", valueName: "METHOD=MS", help: "replace a method's deadline") { text throws(ServerOptions.UsageError) in
        try methodAndMilliseconds(text, flag: "--deadline", lowest: 1)
    }
    package static let simulateLatency = CommandFlag<[(method: String, milliseconds: Int)]>(
        repeatable: "--simulate-latency", valueName: "METHOD=MS", help: "delay a method's handler by MS, cancellably") { text throws(ServerOptions.UsageError) in
        try methodAndMilliseconds(text, flag: "--simulate-latency", lowest: 0)
    }
    package static let maxInflight = CommandFlag<Int>(
        "--max-inflight", help: "calls in flight before reading pauses (default \(defaults.maxInflight))",
        range: 1...ServerOptions.maxFlagNumber, absent: defaults.maxInflight)
    package static let maxMessageBytes = CommandFlag<Int>(
        "--max-message-bytes", help: "largest accepted message (default \(defaults.maxMessageBytes))",
        range: 1...ServerOptions.maxFlagNumber, absent: defaults.maxMessageBytes)
    package static let progressInterval = CommandFlag<Int>(
        "--progress-interval-ms", help: "period of progress notifications (default \(defaults.progressIntervalMs))",
        range: 1...ServerOptions.maxFlagNumber, absent: defaults.progressIntervalMs)
    package static let shutdownGrace = CommandFlag<Int>(
        "--shutdown-grace-ms", help: "grace period for calls in flight on SIGTERM (default \(defaults.shutdownGraceMs))",
        range: 0...ServerOptions.maxFlagNumber, absent: defaults.shutdownGraceMs)
    package static let logLevel = CommandFlag<Log.Level>(
        "--log-level", valueName: "error|warn|info|debug", help: "stderr verbosity (default \(ServerOptions().logLevel))",
        absent: ServerOptions().logLevel) { name throws(ServerOptions.UsageError) in
        guard let level = Log.Level(name: name) else {
            throw ServerOptions.UsageError("--log-level must be error, warn, info or debug, got '\(name)'")
        }
        return level
    }
    package static let trace = CommandFlag<String?>("--trace", valueName: "FILE", help: "append every message in and out to FILE as JSON lines")
    /// `--version`: the usage lists it beside `--help`, not in this table's rows.
    package static let version = CommandFlag<Bool>(switch: "--version", help: "print the version and exit")

    /// Every engine flag but `--version`, in the order the usage lists them.
    package static let all: [any AnyCommandFlag] = [
        framing, deadline, simulateLatency, maxInflight, maxMessageBytes, progressInterval, shutdownGrace, logLevel, trace,
    ]

    /// `METHOD=MS`, split at the last `=`, MS an integer from `lowest` to `maxFlagNumber`.
    private static func methodAndMilliseconds(_ text: String, flag: String, lowest: Int) throws(ServerOptions.UsageError) -> (method: String, milliseconds: Int) {
        guard let equals = text.lastIndex(of: "="), equals != text.startIndex else {
            throw ServerOptions.UsageError("\(flag) takes METHOD=MS, got '\(text)'")
        }
        let number = String(text[text.index(after: equals)...])
        return (String(text[..<equals]), try CommandFlagDeclaration.integer(number, flag: flag, in: lowest...ServerOptions.maxFlagNumber))
    }
}
