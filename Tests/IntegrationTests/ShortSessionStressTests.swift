import Foundation
import Synchronization
import XCTest

/// Hundreds of short sessions of the real binary, ended every way a session ends: end of input
/// while calls are in flight, SIGTERM, and a closed stdout. Every one must exit with status 0 (not
/// by a signal), print no trap or crash text, and, where the client can still read, answer every
/// request exactly once. Lifecycle races (a Dispatch object still registered at exit, a lost
/// signal) show up here as a signal, a hang or a missing reply. Sessions are generated from fixed
/// seeds, so a failure names a seed to replay; timing still varies from run to run.
final class ShortSessionStressTests: XCTestCase {
    private enum Ending: CaseIterable { case endOfInput, sigterm, closedStdout }

    func test_manyShortSessions_eachEndsWithStatusZero_andAnswersEveryRequest() throws {
        let sessions = 240
        let failures = FailureLog()
        let traceDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("stress-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: traceDirectory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: traceDirectory) }
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            while true {
                let seed = next.add(1, ordering: .relaxed).oldValue
                guard seed < sessions else { return }
                let ending = Ending.allCases[seed % Ending.allCases.count]
                if let problem = Self.runSession(seed: UInt64(seed), ending: ending, traceDirectory: traceDirectory) {
                    failures.append("seed \(seed) (\(ending)): \(problem)")
                }
            }
        }
        let found = failures.all
        XCTAssertTrue(found.isEmpty, "\(found.count) of \(sessions) sessions failed:\n" + found.prefix(10).joined(separator: "\n"))
    }

    // MARK: - One session

    /// Runs one session; returns what went wrong, or nil.
    private static func runSession(seed: UInt64, ending: Ending, traceDirectory: URL) -> String? {
        var random = SeededRandom(seed: seed)
        var arguments = ["--db", ":memory:", "--shutdown-grace-ms", String(random.next(below: 20))]
        switch ending {
        case .endOfInput: arguments += ["--simulate-latency", "catalog.get=3", "--simulate-latency", "inventory.check=10"]
        case .sigterm: arguments += ["--simulate-latency", "catalog.list=60000", "--simulate-latency", "catalog.get=2"]
        case .closedStdout: break
        }
        if random.next(below: 3) == 0 { arguments += ["--trace", traceDirectory.appendingPathComponent("trace-\(seed).jsonl").path] }
        if random.next(below: 4) == 0 { arguments += ["--progress-interval-ms", "1"] }
        let server: ServerProcess
        do {
            server = try ServerProcess(arguments, closeStdout: ending == .closedStdout)
        } catch {
            return "could not start the server: \(error)"
        }
        let (lines, expected) = sessionInput(&random)
        var output = ""
        switch ending {
        case .endOfInput:
            server.send(lines.joined(separator: "\n") + "\n")
            server.closeInput()  // calls with simulated latency are still in flight
            output = server.remainingOutput(timeout: 60)
        case .sigterm:
            // Once the last ping is answered every earlier line has been read (in order), so each
            // request is answered: with its result, or with ShuttingDown after the grace period.
            server.send(lines.joined(separator: "\n") + "\n" + rpc("last", "ping") + "\n")
            while let line = server.readLine(timeout: 60) {
                output += line + "\n"
                if line.contains(#""id":"last""#) { break }
            }
            server.process.terminate()
            output += server.remainingOutput(timeout: 60)
        case .closedStdout:
            server.send(lines.joined(separator: "\n") + "\n")
            server.closeInput()
        }
        guard let status = server.waitForExit(timeout: 60) else { return "still running after 60 s" }
        var problems: [String] = []
        if server.process.terminationReason != .exit { problems.append("ended by signal \(status)") }
        if status != 0 { problems.append("exit status \(status)") }
        let stderr = server.stderrOutput
        for trap in ["Fatal error", "SIGSEGV", "Segmentation", "Sanitizer", "Illegal instruction", "Crash", "Aborted"]
        where stderr.contains(trap) {
            problems.append("stderr mentions \(trap): \(stderr.suffix(500))")
        }
        if ending != .closedStdout {
            let answered = replyIDs(output)
            let missing = expected.subtracting(answered)
            if !missing.isEmpty { problems.append("\(missing.count) requests unanswered, e.g. \(missing.sorted().prefix(5))") }
            var seen = Set<Int>()
            let twice = answered.filter { !seen.insert($0).inserted }
            if !twice.isEmpty { problems.append("answered twice: \(twice.prefix(5))") }
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    // MARK: - Input

    /// NDJSON lines and the integer ids that must be answered: calls of every shop method (some
    /// with short deadlines or progress tokens), batches, cancels, notifications and garbage.
    private static func sessionInput(_ random: inout SeededRandom) -> (lines: [String], expected: Set<Int>) {
        var lines: [String] = []
        var expected = Set<Int>()
        var nextID = 1
        func call() -> String {
            defer { expected.insert(nextID); nextID += 1 }
            var params = shopParams(&random)
            let method = params.removeValue(forKey: "method") as! String
            if random.next(below: 4) == 0 {
                var meta: [String: Any] = ["deadlineMs": [1, 2, 5, 30][random.next(below: 4)]]
                if random.next(below: 2) == 0 { meta["progressToken"] = "p\(nextID)" }
                params["_meta"] = meta
            }
            return rpc(nextID, method, params.isEmpty && ["ping", "rpc.discover", "rpc.stats"].contains(method) ? nil : params)
        }
        for _ in 0..<(5 + random.next(below: 40)) {
            switch random.next(below: 10) {
            case 0..<6: lines.append(call())
            case 6: lines.append("[" + (0...random.next(below: 4)).map { _ in call() }.joined(separator: ",") + "]")
            case 7 where nextID > 1: lines.append(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":\#(1 + random.next(below: nextID - 1))}}"#)
            case 8: lines.append(["garbage", "{", "[]", "null", #"{"jsonrpc":"2.0"}"#, #"{"id":"x","method":1}"#][random.next(below: 6)])
            default: lines.append(#"{"jsonrpc":"2.0","method":"cart.add","params":{"cartId":"n","sku":"SKU-0001","quantity":1}}"#)
            }
        }
        return (lines, expected)
    }

    /// A shop method and its params (under "method").
    private static func shopParams(_ random: inout SeededRandom) -> [String: Any] {
        let sku = "SKU-000\(1 + random.next(below: 9))"
        let cart = "cart-\(random.next(below: 3))"
        switch random.next(below: 14) {
        case 0: return ["method": "catalog.list", "limit": 5]
        case 1: return ["method": "catalog.get", "sku": sku]
        case 2: return ["method": "catalog.search", "query": "blue"]
        case 3: return ["method": "inventory.check", "skus": [sku, "SKU-9999"]]
        case 4: return ["method": "cart.add", "cartId": cart, "sku": sku, "quantity": 1 + random.next(below: 3)]
        case 5: return ["method": "cart.get", "cartId": cart]
        case 6: return ["method": "cart.remove", "cartId": cart, "sku": sku]
        case 7: return ["method": "cart.clear", "cartId": cart]
        case 8: return ["method": "orders.place", "cartId": cart, "idempotencyKey": "k\(random.next(below: 3))"]
        case 9: return ["method": "orders.get", "orderId": "nope"]
        case 10: return ["method": "orders.list", "limit": 3]
        case 11: return ["method": "rpc.discover"]
        case 12: return ["method": "rpc.stats"]
        default: return ["method": "ping"]
        }
    }

    /// Integer ids of the replies in NDJSON `output` (single replies and batch arrays; notifications skipped).
    private static func replyIDs(_ output: String) -> [Int] {
        var ids: [Int] = []
        for line in output.split(separator: "\n") {
            guard let value = try? JSONSerialization.jsonObject(with: Data(line.utf8)) else { continue }
            let replies = (value as? [Any]) ?? [value]
            for case let reply as [String: Any] in replies where reply["method"] == nil {
                if let id = reply["id"] as? Int { ids.append(id) }
            }
        }
        return ids
    }
}

/// Failures collected from several threads (NSLock, which ThreadSanitizer sees). Thread-safe.
private final class FailureLog: @unchecked Sendable {  // `entries` is guarded by `lock`
    private let lock = NSLock()
    private var entries: [String] = []
    func append(_ entry: String) { lock.withLock { entries.append(entry) } }
    var all: [String] { lock.withLock { entries } }
}
