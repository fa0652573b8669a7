#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Leveled logging to stderr only (never to the protocol stream). Each line is one write, so
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

    private static let threshold = Locked(Level.warn)
    private static let name = Locked("rpc-server")

    /// The program name each line starts with (the server's `ServerIdentity.name`).
    public static var prefix: String {
        get { name.withLock { $0 } }
        set { name.withLock { $0 = newValue } }
    }

    public static var level: Level {
        get { threshold.withLock { $0 } }
        set { threshold.withLock { $0 = newValue } }
    }

    public static func error(_ message: @autoclosure () -> String) { write(.error, message) }
    public static func warn(_ message: @autoclosure () -> String) { write(.warn, message) }
    public static func info(_ message: @autoclosure () -> String) { write(.info, message) }
    public static func debug(_ message: @autoclosure () -> String) { write(.debug, message) }

    private static func write(_ messageLevel: Level, _ message: () -> String) {
        guard messageLevel <= level else { return }
        let line = "\(prefix) [\(messageLevel)] \(message())\n"
        try? FileDescriptorIO.writeAll(STDERR_FILENO, Array(line.utf8))
    }
}
