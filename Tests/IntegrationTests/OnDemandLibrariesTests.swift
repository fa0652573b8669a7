import Foundation
import XCTest

/// libpq and libcurl are loaded only by the features that need them (`--db postgres://…`,
/// `--inventory-url`), never at start-up: most of a start-up's time and memory went to loading
/// them and the libraries behind them (bench/HISTORY.md, "Floors"). Checked in the running
/// server's own memory map, once it has answered.
final class OnDemandLibrariesTests: XCTestCase {
    /// The shared libraries mapped into the server after its first reply.
    private func librariesLoaded(by arguments: [String]) throws -> String {
        let server = try ServerProcess(arguments)
        defer { server.closeInput(); _ = server.waitForExit() }
        server.sendLine(rpc(1, "ping"))
        XCTAssertEqual((server.readJSON() as? [String: Any])?["id"] as? Int, 1, "the server answers")
        // Read to the end: /proc files report a size of 0, which a whole-file read would trust.
        let maps = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(server.process.processIdentifier)/maps"))
        defer { try? maps.close() }
        return String(decoding: try maps.readToEnd() ?? Data(), as: UTF8.self)
    }

    func test_sqliteStore_loadsNeitherLibpqNorLibcurl() throws {
        let maps = try librariesLoaded(by: ["--db", ":memory:"])
        XCTAssertTrue(maps.contains("libsqlite3"), "the map is the server's (it uses SQLite)")
        XCTAssertFalse(maps.contains("libpq.so"), "libpq is loaded only for a postgres:// store")
        XCTAssertFalse(maps.contains("libcurl"), "libcurl is loaded only for --inventory-url")
    }

    func test_inventoryURL_loadsLibcurl_butNotLibpq() throws {
        let maps = try librariesLoaded(by: ["--db", ":memory:", "--inventory-url", "http://127.0.0.1:\(try LoopbackSocket.closedPort())"])
        XCTAssertTrue(maps.contains("libcurl.so"))
        XCTAssertFalse(maps.contains("libpq.so"))
    }

    func test_postgresStore_loadsLibpq_butNotLibcurl() throws {
        let database = try PostgreSQLScratchDatabase()
        defer { database.drop() }
        let maps = try librariesLoaded(by: ["--db", database.uri])
        XCTAssertTrue(maps.contains("libpq.so"))
        XCTAssertFalse(maps.contains("libcurl"))
    }
}
