import Foundation
import XCTest

/// No output of the real binary repeats a `--db` URI's password (protocol.md, section 9): not the
/// start-up errors, ours or libpq's, for any command; not stderr at `--log-level debug`, `rpc.stats`
/// or a `--trace` file while serving.
final class DatabasePasswordRedactionTests: XCTestCase {
    private let password = "secretpw"

    /// Every way a URI fails before or while connecting (libpq is loaded, and a bad URI fails before
    /// any connection; port 1 on the loopback refuses): exit 1, the store named by its scheme only.
    func test_startUpErrors_neverRepeatThePassword_orTheURI() throws {
        let values = [
            "postgres://user:\(password)@[::1",                   // libpq quotes the whole URI
            "postgres://user:secret%zzpw@127.0.0.1:1/db",          // libpq quotes the bad token
            "POSTGRES://u:\(password)@h/db?x=1",                   // libpq took it for key=value and quoted it
            "PostgreSQL://u:\(password)@127.0.0.1:1/db",           // the scheme in any case is a URI
            "postgres://u:\(password)@127.0.0.1:1/db",
            "postgresql:///db?host=127.0.0.1&port=1&password=\(password)",
            "postgres://u@127.0.0.1:1/db?password=sec%72etpw",
        ]
        for value in values {
            for command in [[], ["export", "products"], ["import", "--format", "csv", "-"]] {
                // serve at its most verbose; import and export take no --log-level.
                let result = try runCommand(command.isEmpty ? ["--db", value, "--log-level", "debug"] : command + ["--db", value])
                XCTAssertEqual(result.status, 1, "\(command) \(value): \(result.stderr)")
                XCTAssertTrue(result.stderr.hasPrefix("shop-rpc: cannot open the postgres"), "\(command) \(value): \(result.stderr)")
                for secret in ["secret", value, value.lowercased()] {
                    XCTAssertFalse(result.stderr.contains(secret), "\(command) \(value): \(result.stderr)")
                    XCTAssertFalse(result.stdout.contains(secret), "\(command) \(value): \(result.stdout)")
                }
            }
        }
    }

    /// An upper-case scheme is the same URI: it reaches the server it names, never the local
    /// default socket as a database name.
    func test_upperCaseScheme_isParsedAsAURI_notADatabaseName() throws {
        let result = try runCommand(["--db", "POSTGRES://u:\(password)@127.0.0.1:1/db"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains(#"server at "127.0.0.1", port 1"#), result.stderr)
    }

    func test_unsupportedScheme_exitsTwo_withoutRepeatingTheValue() throws {
        let result = try runCommand(["--db", "mysql://u:\(password)@h/shop"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("'mysql://' stores are not supported"), result.stderr)
        XCTAssertFalse(result.stderr.contains(password), result.stderr)
        XCTAssertFalse(result.stderr.contains("mysql://u"), result.stderr)
    }

    /// With a cluster (scripts/with-postgres): a URI holding a password (ignored by the cluster's
    /// trust authentication) serves, and neither stderr at debug level, `rpc.stats`, the replies
    /// nor the trace file holds it.
    func test_serving_debugLogStatsAndTrace_neverHoldThePassword() throws {
        let database = try PostgreSQLScratchDatabase()
        defer { database.drop() }
        let uri = database.uri + (database.uri.contains("?") ? "&" : "?") + "password=\(password)"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shop-redact-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("trace.jsonl").path

        let server = try ServerProcess(["--db", uri, "--log-level", "debug", "--trace", trace, "--allow", "read,write,admin"])
        server.sendLine(rpc(1, "rpc.stats"))
        server.sendLine(rpc(2, "catalog.get", ["sku": "SKU-0001"]))
        server.sendLine(rpc(3, "orders.place", ["cartId": "nothing-here", "idempotencyKey": "k"]))
        let replies = server.readReplies(3)
        XCTAssertNotNil(replies["1"]?.result, "\(replies)")
        server.closeInput()
        let rest = server.remainingOutput()
        XCTAssertEqual(server.waitForExit(), 0, server.stderrOutput)
        let traced = try String(contentsOfFile: trace, encoding: .utf8)
        XCTAssertTrue(traced.contains("rpc.stats"), traced)
        for (name, text) in [("replies", "\(replies)" + rest), ("stderr", server.stderrOutput), ("trace", traced)] {
            XCTAssertFalse(text.contains(password), "\(name): \(text)")
        }
    }
}
