import SharedSupport

/// Leveled logging to stderr only (never to the protocol stream), through the package's one
/// `StderrLog`, which the shop's modules write to as well. Each line is one write, so
/// lines from different threads do not interleave; tolerates a non-blocking stderr. Thread-safe.
/// Each line is `<prefix> [<level>] <message>`; `StdioServer.run` sets the prefix to the server's
/// name and the level from `--log-level`. Messages are built only when they will be written.
///
/// ```swift
/// Log.info("cache warmed: \(count) entries")   // "hello-rpc [info] cache warmed: 12 entries"
/// ```
public enum Log {
    /// Severity, from most to least important; a message is written when it is at or above `Log.level`.
    public enum Level: Int, Sendable, Comparable, CaseIterable {
        case error, warn, info, debug

        public init?(name: String) {
            switch name.lowercased() {
            case "error": self = .error
            case "warn", "warning": self = .warn
            case "info": self = .info
            case "debug": self = .debug
            default: return nil
            }
        }

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The program name each line starts with (the server's `ServerIdentity.name`).
    public static var prefix: String {
        get { StderrLog.prefix }
        set { StderrLog.prefix = newValue }
    }

    public static var level: Level {
        get { Level(rawValue: StderrLog.threshold.rawValue) ?? .warn }
        set { StderrLog.threshold = StderrLog.Severity(rawValue: newValue.rawValue) ?? .warn }
    }

    public static func error(_ message: @autoclosure () -> String) { StderrLog.write(.error, message) }
    public static func warn(_ message: @autoclosure () -> String) { StderrLog.write(.warn, message) }
    public static func info(_ message: @autoclosure () -> String) { StderrLog.write(.info, message) }
    public static func debug(_ message: @autoclosure () -> String) { StderrLog.write(.debug, message) }
}
