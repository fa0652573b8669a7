import XCTest
@testable import RPCServer

/// A flag given twice: refused, naming it, unless its help says it is repeatable.
final class ServerOptionsRepeatTests: XCTestCase {
    private let database = ServerOptions.ApplicationOption(flag: "--db", valueName: "PATH", help: "the store")
    private let allow = ServerOptions.ApplicationOption(flag: "--allow", valueName: "SCOPES", help: "the scopes")
    private let readOnly = ServerOptions.ApplicationOption(flag: "--read-only", help: "serve only what reads")

    private func usageError(_ arguments: [String]) -> String? {
        do {
            _ = try ServerOptions.parse(arguments, applicationOptions: [database, allow, readOnly])
            return nil
        } catch {
            return error.description
        }
    }

    func test_applicationOption_givenTwice_isAUsageErrorNamingIt() {
        XCTAssertEqual(usageError(["--allow", "read", "--allow", "write"]), "--allow is given twice")
        XCTAssertEqual(usageError(["--allow=read", "--allow", "read"]), "--allow is given twice", "even with the same value")
        XCTAssertEqual(usageError(["--db", "a", "--db=b"]), "--db is given twice")
        XCTAssertEqual(usageError(["--read-only", "--read-only"]), "--read-only is given twice")
    }

    func test_singleValuedEngineFlag_givenTwice_isAUsageErrorNamingIt() {
        for (flag, value) in [
            ("--framing", "ndjson"), ("--max-inflight", "4"), ("--max-message-bytes", "100"), ("--progress-interval-ms", "10"),
            ("--shutdown-grace-ms", "0"), ("--log-level", "debug"), ("--trace", "/tmp/t"),
        ] {
            XCTAssertEqual(usageError([flag, value, "\(flag)=\(value)"]), "\(flag) is given twice")
        }
    }

    func test_repeatableFlags_deadlineAndSimulateLatency_accumulate() throws {
        let options = try ServerOptions.parse([
            "--deadline", "a=5", "--deadline=b=6", "--simulate-latency", "a=1", "--simulate-latency", "b=2",
        ])
        XCTAssertEqual(options.deadlineOverrides.map(\.method), ["a", "b"])
        XCTAssertEqual(options.deadlineOverrides.map(\.milliseconds), [5, 6])
        XCTAssertEqual(options.engine.simulatedLatencyMs, ["a": 1, "b": 2])
    }

    func test_usage_marksExactlyTheRepeatableFlags() {
        let lines = ServerOptions.usage(program: "x").split(separator: "\n").filter { $0.contains("(repeatable)") }
        XCTAssertEqual(lines.count, 2, "\(lines)")
        XCTAssertTrue(lines.allSatisfy { $0.contains("--deadline") || $0.contains("--simulate-latency") }, "\(lines)")
    }
}
