import XCTest

/// The real binary's flags given more than once: a single-valued flag given twice is a usage error
/// naming it (exit 2, before any store is opened); the repeatable ones accumulate.
final class CommandLineFlagTests: XCTestCase {
    func test_serve_singleValuedFlagGivenTwice_exitsTwoNamingIt() throws {
        for arguments in [
            ["--allow", "read", "--allow", "read,write,admin"],
            ["--db", ":memory:", "--db=:memory:"],
            ["--read-only", "--read-only"],
            ["--trace", "/dev/null", "--trace", "/dev/null"],
            ["serve", "--log-level", "info", "--log-level=debug"],
        ] {
            let result = try runCommand(arguments + (arguments.contains("--db") ? [] : ["--db", ":memory:"]))
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            let flag = arguments.first { $0.hasPrefix("--") }!
            XCTAssertTrue(result.stderr.hasPrefix("shop-rpc: \(flag) is given twice\n"), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "\(arguments): nothing is served")
        }
    }

    func test_importAndExport_flagGivenTwice_exitsTwoNamingIt() throws {
        let store = CommandStore.sqlite()
        defer { store.remove() }
        for arguments in [
            ["import", "--db", store.location, "--db", store.location, "--format", "csv", "-"],
            ["export", "products", "--format", "csv", "--format=ndjson", "--db", store.location],
        ] {
            let result = try runCommand(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(" is given twice"), "\(arguments): \(result.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.location), "a usage error creates no store")
    }

    func test_serve_repeatableFlags_areAcceptedMoreThanOnce() throws {
        let server = try ServerProcess([
            "--db", ":memory:", "--deadline", "catalog.get=4000", "--deadline", "catalog.search=4000",
            "--simulate-latency", "ping=1", "--simulate-latency", "catalog.get=1",
        ])
        server.sendLine(rpc(1, "catalog.get", ["sku": "SKU-0001"]))
        let reply = server.readJSON() as? [String: Any]
        XCTAssertNotNil(reply?["result"], "\(String(describing: reply)) \(server.stderrOutput)")
        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0)
    }

    func test_badFlagValue_ofEveryKind_exitsTwoSayingWhatItTakes_beforeAnyStoreIsOpened() throws {
        let store = CommandStore.sqlite()
        defer { store.remove() }
        for (arguments, message) in [
            (["--db", store.location, "--inventory-limit", "sometimes"], "--inventory-limit must be adaptive or fixed, got 'sometimes'"),
            (["--db", store.location, "--allow", "read,everything"], "--allow: unknown scope 'everything'"),
            (["--db", store.location, "--max-inflight", "0"], "--max-inflight needs an integer from 1 to"),
            (["--db", store.location, "--inventory-stale-ms", "10"], "--inventory-stale-ms needs --inventory-url"),
            (["export", "orders", "--db", store.location, "--since", "yesterday"], "--since needs an ISO 8601 time"),
            (["import", "--db", store.location, "--format", "xml", "-"], "--format must be csv or ndjson, got 'xml'"),
        ] {
            let result = try runCommand(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("shop-rpc: \(message)"), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.location), "a bad flag value creates no store")
    }
}
