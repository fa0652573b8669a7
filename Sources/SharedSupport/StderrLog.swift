#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's one leveled log on stderr, shared by every module of the package: the engine's
/// public `Log` (RPCServer) sets its prefix and threshold and writes through it, and the shop's
/// stores and inventory client write to it directly, without importing the engine. Never writes to
/// the protocol stream. Each line is one write, so lines from different threads do not interleave;
/// tolerates a non-blocking stderr. Thread-safe. Messages are built only when they will be written.
package enum StderrLog {
    /// Severity, from most to least important; a message is written when it is at or above `threshold`.
    package enum Severity: Int, Sendable, Comparable {
        case error, warn, info, debug

        package static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private static let currentThreshold = Locked(Severity.warn)
    private static let currentPrefix = Locked("rpc-server")

    /// The program name each line starts with.
    package static var prefix: String {
        get { currentPrefix.withLock { $0 } }
        set { currentPrefix.withLock { $0 = newValue } }
    }

    /// The least important severity that is written.
    package static var threshold: Severity {
        get { currentThreshold.withLock { $0 } }
        set { currentThreshold.withLock { $0 = newValue } }
    }

    package static func error(_ message: @autoclosure () -> String) { write(.error, message) }
    package static func warn(_ message: @autoclosure () -> String) { write(.warn, message) }
    package static func info(_ message: @autoclosure () -> String) { write(.info, message) }
    package static func debug(_ message: @autoclosure () -> String) { write(.debug, message) }

    /// Writes `<prefix> [<severity>] <message>` and a newline, if `severity` is at or above the threshold.
    package static func write(_ severity: Severity, _ message: () -> String) {
        guard severity <= threshold else { return }
        let line = "\(prefix) [\(severity)] \(message())\n"
        try? FileDescriptorIO.writeAll(STDERR_FILENO, Array(line.utf8))
    }
}
