import Foundation
import XCTest

/// `shop-rpc --read-only` through the real binary: it serves an existing store without writing
/// it, whatever state its WAL files are in, and never creates or seeds one.
final class ReadOnlyServeTests: XCTestCase {
    func test_missingSQLiteStore_exitsOne_creatingNothing() throws {
        let store = CommandStore.sqlite()
        defer { store.remove() }
        let server = try ServerProcess(["--read-only", "--db", store.location])
        XCTAssertEqual(server.waitForExit(), 1)
        XCTAssertTrue(server.stderrOutput.contains("cannot open the store at \(store.location): there is no store there, and a read-only opening never creates one"),
                      server.stderrOutput)
        XCTAssertFalse(FileManager.default.fileExists(atPath: (store.location as NSString).deletingLastPathComponent), "no directory")
    }

    func test_missingDefaultStore_exitsOne_withoutSeedingTheDemoCatalog() throws {
        let dataHome = FileManager.default.temporaryDirectory.appendingPathComponent("shop-ro-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dataHome) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = dataHome.path
        let server = try ServerProcess(["--read-only"], environment: environment)
        XCTAssertEqual(server.waitForExit(), 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dataHome.path), "nothing under XDG_DATA_HOME")
    }

    /// The store as a server leaves it (-wal and -shm beside it), without its -shm, and after a
    /// clean checkpoint (neither): each is read, and the database and its WAL keep their bytes.
    func test_existingSQLiteStore_isServedInEveryWALState_andNotWritten() throws {
        let store = CommandStore.sqlite()
        defer { store.remove() }
        let writer = try ServerProcess(["--db", store.location])
        writer.sendLine(rpc(1, "cart.add", ["cartId": "ro", "sku": "SKU-0003", "quantity": 2]))
        XCTAssertNotNil((writer.readJSON() as? [String: Any])?["result"])
        writer.closeInput()
        XCTAssertEqual(writer.waitForExit(), 0)

        for state in ["as the server left it", "without its -shm", "checkpointed"] {
            if state == "without its -shm" { try FileManager.default.removeItem(atPath: store.location + "-shm") }
            if state == "checkpointed" {
                _ = try sqliteShell(store.location, "PRAGMA wal_checkpoint(TRUNCATE)")
                XCTAssertFalse(FileManager.default.fileExists(atPath: store.location + "-wal"), "the shell's close removed the WAL")
            }
            let files = [store.location, store.location + "-wal"]
            let before = files.map { FileManager.default.contents(atPath: $0) }
            let server = try ServerProcess(["--read-only", "--db", store.location])
            server.sendLine(rpc(1, "cart.get", ["cartId": "ro"]))
            server.sendLine(rpc(2, "catalog.search", ["query": "lamp"]))
            server.sendLine(rpc(3, "cart.add", ["cartId": "ro", "sku": "SKU-0003", "quantity": 1]))
            let replies = server.readReplies(3)
            server.closeInput()
            XCTAssertEqual(server.waitForExit(), 0, "\(state): \(server.stderrOutput)")
            XCTAssertEqual(((replies["1"]?.result?["lines"] as? [[String: Any]])?.first?["quantity"] as? Int), 2, "\(state): \(replies)")
            XCTAssertFalse(((replies["2"]?.result?["items"] as? [Any]) ?? []).isEmpty, "\(state): \(replies)")
            XCTAssertEqual(replies["3"]?.errorCode, -32601, "\(state): writes are not served")
            if state != "checkpointed" {
                XCTAssertEqual(files.map { FileManager.default.contents(atPath: $0) }, before, "\(state): nothing written")
            } else {
                XCTAssertEqual(FileManager.default.contents(atPath: store.location), before[0], "\(state): nothing written")
            }
        }
    }

    /// PostgreSQL (scripts/with-postgres): a database without the shop's schema is refused and
    /// left without it; one with it is served with read-only sessions.
    func test_postgres_emptyDatabase_exitsOne_andStaysEmpty_aShopDatabaseIsServed() throws {
        let database = try PostgreSQLScratchDatabase()
        defer { database.drop() }
        for _ in 0..<2 {
            let refused = try ServerProcess(["--read-only", "--db", database.uri])
            XCTAssertEqual(refused.waitForExit(), 1)
            XCTAssertTrue(refused.stderrOutput.contains("there is no shop store in this database, and a read-only opening never creates one"),
                          "(the second time too: the first created no schema) \(refused.stderrOutput)")
        }
        let creator = try ServerProcess(["--db", database.uri])
        creator.closeInput()
        XCTAssertEqual(creator.waitForExit(), 0, creator.stderrOutput)
        let server = try ServerProcess(["--read-only", "--db", database.uri])
        server.sendLine(rpc(1, "catalog.get", ["sku": "SKU-0001"]))
        XCTAssertEqual(((server.readJSON() as? [String: Any])?["result"] as? [String: Any])?["sku"] as? String, "SKU-0001")
        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0, server.stderrOutput)
    }
}
