import Foundation
import XCTest

/// A `psql` process held open on one database, for tests that need another session beside the
/// server under test (holding a row lock, reading `pg_stat_activity`). Statements go in on stdin;
/// `waitFor(marker:)` waits for a line `\echo` printed. Every wait is bounded. Not thread-safe:
/// one test thread drives it. Terminates `psql` on deinit.
final class PostgreSQLTestSession: @unchecked Sendable {  // `text` is guarded by `condition`; the rest is set in init
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let condition = NSCondition()
    private var text = ""

    init(uri: String) throws {
        if let bin = ProcessInfo.processInfo.environment["SHOP_RPC_TEST_POSTGRES_BIN"], FileManager.default.isExecutableFile(atPath: bin + "/psql") {
            process.executableURL = URL(fileURLWithPath: bin + "/psql")
            process.arguments = ["-X", "-q", "-A", "-t", "-d", uri]
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["psql", "-X", "-q", "-A", "-t", "-d", uri]
        }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let handle = output.fileHandleForReading
        Thread.detachNewThread { [weak self, condition] in
            while true {
                let chunk = handle.availableData
                condition.lock()
                if chunk.isEmpty {
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                self?.text += String(decoding: chunk, as: UTF8.self)
                condition.broadcast()
                condition.unlock()
            }
        }
    }

    deinit {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
    }

    /// Sends SQL (or psql meta-commands) as typed at the prompt; ends it with a newline.
    func send(_ sql: String) {
        try? input.fileHandleForWriting.write(contentsOf: Data((sql + "\n").utf8))
    }

    /// Sends `\echo marker` and waits until it is printed, so everything sent before has run.
    /// Returns what was printed before it, or nil at `timeout`.
    @discardableResult
    func waitFor(marker: String, timeout: TimeInterval = 30) -> String? {
        send("\\echo \(marker)")
        let limit = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let range = text.range(of: marker + "\n") {
                let before = String(text[..<range.lowerBound])
                text.removeSubrange(..<range.upperBound)
                return before
            }
            if !condition.wait(until: limit) { return nil }
        }
    }

    /// Runs one query (no trailing `;` needed) and returns its output, trimmed (`-A -t`: values
    /// only, `|`-separated).
    func query(_ sql: String, timeout: TimeInterval = 30) -> String? {
        send(sql.hasSuffix(";") ? sql : sql + ";")
        return waitFor(marker: "--done-\(UUID().uuidString)--", timeout: timeout)?.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
