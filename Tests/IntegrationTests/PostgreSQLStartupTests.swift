import Foundation
import XCTest

/// `--db postgres://…` through the real binary: start-up faults end the process with exit 1 and a
/// clear message within 10 s; a working URI serves the shop, also with several processes on one
/// database.
final class PostgreSQLStartupTests: XCTestCase {
    // MARK: - Faults (no cluster needed)

    func test_postgresURI_malformed_exitsOne_withLibpqMessage() throws {
        let started = Date()
        let server = try ServerProcess(["--db", "postgresql://localhost:notaport/shop"])
        XCTAssertEqual(server.waitForExit(), 1)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "the issue's start-up bound")
        XCTAssertTrue(server.stderrOutput.contains("cannot open the postgresql:// store"), server.stderrOutput)
        XCTAssertTrue(server.stderrOutput.contains("notaport"), server.stderrOutput)
    }

    /// `postgresql:/shop` (one slash) or `postgres:shop` is a mistyped URI, not a file name: taken
    /// as one it would create a directory tree named `postgresql:` and serve a private SQLite store.
    func test_postgresSchemeWithoutDoubleSlash_isAMalformedURI_notAFilePath() throws {
        let directory = FileManager.default.currentDirectoryPath
        for value in ["postgresql:/shop_typo_\(getpid())", "POSTGRES:shop_typo_\(getpid())", "postgresql:/u:s3cret-pw@db/shop"] {
            let server = try ServerProcess(["--db", value])
            XCTAssertEqual(server.waitForExit(), 1, value)
            XCTAssertTrue(server.stderrOutput.lowercased().contains("cannot open the postgres"), server.stderrOutput)
            XCTAssertTrue(server.stderrOutput.contains("://"), "says what a URI starts with: \(server.stderrOutput)")
            XCTAssertFalse(server.stderrOutput.contains("s3cret-pw"), "the value is not repeated")
            let prefix = String(value.prefix(while: { $0 != ":" })) + ":"
            for path in [directory + "/" + prefix, directory + "/" + value] {
                XCTAssertFalse(FileManager.default.fileExists(atPath: path), "no file store was created for \(value)")
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }

    func test_postgresURI_unreachableServer_exitsOne_withinTenSeconds() throws {
        for uri in ["postgres://127.0.0.1:1/shop", "postgresql:///shop?host=/nonexistent-socket-dir&port=5999"] {
            let started = Date()
            let server = try ServerProcess(["--db", uri])
            XCTAssertEqual(server.waitForExit(), 1, uri)
            XCTAssertLessThan(Date().timeIntervalSince(started), 10, uri)
            XCTAssertTrue(server.stderrOutput.contains("cannot open the postgres"), server.stderrOutput)
        }
    }

    /// A server that accepts TCP connections and never answers (here: a loopback socket that
    /// listens and never accepts; the kernel completes the handshake) is given up on after the
    /// default connect timeout (5 s), not waited for forever.
    func test_postgresURI_serverThatNeverAnswers_exitsOne_withinTenSeconds() throws {
        let listener = try LoopbackSocket()
        defer { withExtendedLifetime(listener) {} }  // listening until the test ends
        try listener.listen()
        let port = listener.port

        let started = Date()
        let server = try ServerProcess(["--db", "postgresql://shop@127.0.0.1:\(port)/shop"])
        let status = server.waitForExit(timeout: 30)
        XCTAssertEqual(status, 1, "exits 1 (nil: still waiting for the silent server after 30 s)")
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "the issue's start-up bound")
        XCTAssertTrue(server.stderrOutput.contains("cannot open the postgres"), server.stderrOutput)
        XCTAssertTrue(server.stderrOutput.lowercased().contains("timeout"), server.stderrOutput)
    }

    func test_dbPool_outOfRange_exitsTwo() throws {
        for value in ["0", "-1", "many", "100000"] {
            let server = try ServerProcess(["--db", ":memory:", "--db-pool", value])
            XCTAssertEqual(server.waitForExit(), 2, value)
            XCTAssertTrue(server.stderrOutput.contains("--db-pool"), server.stderrOutput)
        }
    }

    // MARK: - With a cluster

    func test_unknownDatabase_exitsOne_namingIt_withoutThePassword() throws {
        let database = try PostgreSQLScratchDatabase()
        defer { database.drop() }
        var components = try XCTUnwrap(URLComponents(string: database.uri))
        components.path = "/no_such_shop_db"
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "password", value: "s3cret-pw")]
        let server = try ServerProcess(["--db", try XCTUnwrap(components.string)])
        XCTAssertEqual(server.waitForExit(), 1)
        XCTAssertTrue(server.stderrOutput.contains("no_such_shop_db"), server.stderrOutput)
        XCTAssertFalse(server.stderrOutput.contains("s3cret-pw"), "the URI's password is never logged")
    }

    func test_fourProcesses_raceForTheLastUnits_andShareIdempotencyKeys() throws {
        let database = try PostgreSQLScratchDatabase()
        defer { database.drop() }
        let servers = try (0..<4).map { _ in try ServerProcess(["--db", database.uri, "--db-pool", "2"]) }
        defer { servers.forEach { $0.closeInput(); _ = $0.waitForExit() } }

        let sku = "SKU-0021"
        servers[0].sendLine(rpc("stock", "inventory.check", ["skus": [sku]]))
        let stockReply = try XCTUnwrap(servers[0].readJSON() as? [String: Any])
        let stock = try XCTUnwrap((stockReply.result?["levels"] as? [[String: Any]])?.first?["available"] as? Int)

        // One cart of one unit per order, spread over the processes; `extra` more than the stock.
        let extra = 6
        let carts = stock + extra
        for index in 0..<carts {
            servers[index % 4].sendLine(rpc("add-\(index)", "cart.add", ["cartId": "race-\(index)", "sku": sku, "quantity": 1]))
        }
        for (number, server) in servers.enumerated() {
            let added = server.readReplies((0..<carts).filter { $0 % 4 == number }.count)
            XCTAssertTrue(added.values.allSatisfy { $0.result != nil }, "\(added)")
        }
        // Everyone places at once.
        for index in 0..<carts {
            servers[index % 4].sendLine(rpc("place-\(index)", "orders.place", ["cartId": "race-\(index)", "idempotencyKey": "race-\(index)"]))
        }
        var placed = 0
        var outOfStock = 0
        for (number, server) in servers.enumerated() {
            for reply in server.readReplies((0..<carts).filter { $0 % 4 == number }.count).values {
                if reply.result != nil { placed += 1 } else if reply.errorType == "OutOfStock" { outOfStock += 1 } else { XCTFail("unexpected reply \(reply)") }
            }
        }
        XCTAssertEqual(placed, stock, "every unit sold exactly once across processes")
        XCTAssertEqual(outOfStock, extra)

        // The same key retried on every process, at once, gives one and the same order.
        servers[0].sendLine(rpc("add-shared", "cart.add", ["cartId": "shared", "sku": "SKU-0022", "quantity": 1]))
        XCTAssertNotNil(servers[0].readJSON().flatMap { ($0 as? [String: Any])?.result })
        for server in servers {
            server.sendLine(rpc("shared", "orders.place", ["cartId": "shared", "idempotencyKey": "shared-key"]))
        }
        let orderIds = servers.map { ($0.readJSON() as? [String: Any])?.result?["orderId"] as? String }
        XCTAssertEqual(Set(orderIds.compactMap { $0 }).count, 1, "\(orderIds)")
        XCTAssertEqual(orderIds.compactMap { $0 }.count, 4)
    }
}
