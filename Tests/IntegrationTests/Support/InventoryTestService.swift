import Foundation
import XCTest

/// `scripts/inventory-test-service`, the Python inventory service, started for one test on an
/// ephemeral port of 127.0.0.1. It stops when its stdin closes: in `stop()` (every test calls it
/// through `addTeardownBlock`), in `deinit`, or when this process dies, whatever the exit path.
/// Every wait is bounded. Not thread-safe: use it from the test's thread.
final class InventoryTestService {
    let process = Process()
    private let stdin = Pipe()
    private let stdout = Pipe()
    private var lines: [String] = []
    private var pending = Data()
    private(set) var port = 0

    /// The script, found from this file's path (Tests/IntegrationTests/Support/ → scripts/).
    static var scriptURL: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/inventory-test-service")
    }

    /// Starts the service and waits (at most 20 s) for the port it prints.
    init() throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.scriptURL.path]
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.standardError
        try process.run()
        guard let first = readLine(timeout: 20), let port = Int(first) else {
            stop()
            throw NSError(domain: "InventoryTestService", code: 1, userInfo: [NSLocalizedDescriptionKey: "no port from \(Self.scriptURL.path)"])
        }
        self.port = port
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT` followed by `mode` (e.g. `/delay/6000`): the `--inventory-url` value.
    func url(_ mode: String = "") -> String { "http://127.0.0.1:\(port)\(mode)" }

    /// Closes the service's stdin (it exits), and terminates it if it has not exited in 5 s.
    func stop() {
        try? stdin.fileHandleForWriting.close()
        let limit = Date().addingTimeInterval(5)
        while process.isRunning, Date() < limit { usleep(10_000) }
        if process.isRunning { process.terminate() }
    }

    // MARK: - Control

    /// The service's counters (see the script's doc string).
    struct Stats {
        let requests: Int
        let inFlight: Int
        let maxInFlight: Int
        /// Requests held now (`/hold`, `switch hold`), waiting for `release()`.
        let held: Int
        let closedEarly: Int
        let closedEarlyTimes: [Double]
        let requestTimes: [Double]
        let lastSkus: [String]
        /// Every SKU asked, request after request.
        let allSkus: [String]
        /// Each request's `X-Request-Timeout-Ms` header, in arrival order (nil when absent).
        let timeoutHeaders: [String?]
    }

    func stats(file: StaticString = #filePath, line: UInt = #line) -> Stats? {
        guard let object = command("stats") else {
            XCTFail("the inventory service did not answer 'stats'", file: file, line: line)
            return nil
        }
        return Stats(requests: object["requests"] as? Int ?? -1, inFlight: object["inFlight"] as? Int ?? -1,
                     maxInFlight: object["maxInFlight"] as? Int ?? -1, held: object["held"] as? Int ?? -1,
                     closedEarly: object["closedEarly"] as? Int ?? -1,
                     closedEarlyTimes: object["closedEarlyTimes"] as? [Double] ?? [],
                     requestTimes: object["requestTimes"] as? [Double] ?? [], lastSkus: object["lastSkus"] as? [String] ?? [],
                     allSkus: object["allSkus"] as? [String] ?? [],
                     timeoutHeaders: (object["timeoutHeaders"] as? [Any] ?? []).map { $0 as? String })
    }

    /// Polls the stats until `condition` holds; returns the last stats. `timeout` is a hang guard.
    func waitForStats(timeout: TimeInterval = 30, until condition: (Stats) -> Bool) -> Stats? {
        let limit = Date().addingTimeInterval(timeout)
        var last: Stats?
        while Date() < limit {
            last = stats()
            if let last, condition(last) { return last }
            usleep(20_000)
        }
        return last
    }

    /// Sets how `/switch/stock` answers from now on: `"ok"`, `"delay MS"`, `"status CODE"` or
    /// `"hold"` (until `release()`).
    func setSwitch(_ mode: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(command("switch " + mode)?["ok"] as? Bool, true, "switch \(mode)", file: file, line: line)
    }

    /// Answers every request held now (`/hold`, `switch hold`); later ones are held again.
    func release(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(command("release")?["ok"] as? Bool, true, "release", file: file, line: line)
    }

    private func command(_ name: String) -> [String: Any]? {
        try? stdin.fileHandleForWriting.write(contentsOf: Data((name + "\n").utf8))
        guard let line = readLine(timeout: 20) else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    /// The next line of the service's stdout, or nil after `timeout`.
    private func readLine(timeout: TimeInterval) -> String? {
        let limit = Date().addingTimeInterval(timeout)
        let fd = stdout.fileHandleForReading.fileDescriptor
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending = Data(pending[pending.index(after: newline)...])
                return line
            }
            let left = limit.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(left, 1) * 1000))
            if ready < 0, errno == EINTR { continue }
            guard ready >= 0 else { return nil }
            if ready == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            pending.append(contentsOf: chunk[..<count])
        }
    }
}
