import Foundation
import XCTest

/// An import while servers serve the same store, and an import killed with SIGKILL: the real
/// binary over real pipes, on both stores. The import reads its file from stdin, so the test
/// decides how far it has got: while stdin stays open the import is inside its transaction.
final class CatalogLiveImportTests: XCTestCase {
    /// The store's catalog before the import under test: 300 products.
    private let initialCatalog = generatedCatalogCSV(prefix: "OLD", count: 300)

    /// The file the import under test reads: 3 000 new products, then every old one renamed.
    private var importedCatalog: String {
        var text = generatedCatalogCSV(prefix: "NEW", count: 3000)
        for number in 1...300 {
            text += "\(sku("OLD", number)),Renamed Widget \(number),\"\",widgets,\(500 + number),USD,\(number)\n"
        }
        return text
    }

    private func startImport(_ store: CommandStore, arguments: [String] = []) throws -> ServerProcess {
        try ServerProcess(["import", "--db", store.location, "--format", "csv"] + arguments + ["-"])
    }

    private func export(_ store: CommandStore) throws -> String {
        let result = try runCommand(["export", "products", "--db", store.location])
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout
    }

    private func prepare(_ store: CommandStore) throws {
        let result = try runCommand(["import", "--db", store.location, "--format", "csv", "-"], input: initialCatalog)
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    // MARK: - Live

    func test_importWhileAServerServes_readsGoOn_theNewCatalogAppearsAtOnceAtCommit() throws {
        try CommandStore.forEach { store in
            try prepare(store)
            let server = try ServerProcess(["--db", store.location])
            defer { server.closeInput() }
            waitUntilServing(server)
            let importer = try startImport(store)
            let lines = importedCatalog.split(separator: "\n", omittingEmptySubsequences: false)
            importer.send(lines.prefix(2000).joined(separator: "\n") + "\n")

            // The import is under way (inside its transaction, waiting for the rest of stdin):
            // the server reads the catalog as it was.
            for id in 1...20 {
                server.sendLine(rpc(id, "catalog.get", ["sku": "OLD-00007"]))
                let reply = server.readJSON(timeout: 10) as? [String: Any]
                XCTAssertEqual(reply?.result?["name"] as? String, "Gadget 7, \"deluxe\" édition")
            }
            server.sendLine(rpc(30, "catalog.search", ["query": "gadget", "limit": 200]))
            let before = (server.readJSON() as? [String: Any])?.result?["items"] as? [[String: Any]] ?? []
            XCTAssertEqual(before.count, 200)
            XCTAssertTrue(before.allSatisfy { ($0["sku"] as? String)?.hasPrefix("OLD-") == true })
            server.sendLine(rpc(31, "catalog.get", ["sku": "NEW-00001"]))
            XCTAssertEqual((server.readJSON() as? [String: Any])?.errorCode, 1001, "not there before the commit")

            importer.send(lines.dropFirst(2000).joined(separator: "\n"))
            importer.closeInput()
            XCTAssertEqual(importer.waitForExit(timeout: 120), 0, importer.stderrOutput)

            server.sendLine(rpc(40, "catalog.get", ["sku": "NEW-00001"]))
            XCTAssertNotNil((server.readJSON() as? [String: Any])?.result)
            server.sendLine(rpc(41, "catalog.search", ["query": "renamed widget", "limit": 200]))
            XCTAssertEqual(((server.readJSON() as? [String: Any])?.result?["items"] as? [[String: Any]])?.count, 200)
            server.sendLine(rpc(42, "catalog.search", ["query": "gadget", "limit": 200]))
            let after = (server.readJSON() as? [String: Any])?.result?["items"] as? [[String: Any]] ?? []
            XCTAssertTrue(after.allSatisfy { ($0["sku"] as? String)?.hasPrefix("NEW-") == true }, "the old names are not found")
            XCTAssertEqual(after.first?["sku"] as? String, "NEW-00001", "new products follow the old in catalog order")
        }
    }

    /// Returns once `server` has opened the store and answers (opening may write, and so must not
    /// meet an import's lock: on a loaded machine the import could otherwise start first).
    private func waitUntilServing(_ server: ServerProcess) {
        server.sendLine(rpc(0, "ping"))
        XCTAssertEqual((server.readJSON(timeout: 60) as? [String: Any])?["id"] as? Int, 0, "the server answers once the store is open")
    }

    /// SQLite: the import holds the file's write lock for its whole transaction, so a server's
    /// write waits its busy timeout (5 s) and then fails with the retryable StoreBusy.
    func test_sqlite_aServersWriteDuringAnImport_failsWithStoreBusy_andSucceedsAfter() throws {
        let store = CommandStore.sqlite()
        defer { store.remove() }
        try prepare(store)
        let server = try ServerProcess(["--db", store.location])
        defer { server.closeInput() }
        waitUntilServing(server)
        let importer = try startImport(store)
        importer.send("sku,stock\nOLD-00001,5\n")
        // The import opens its transaction once it has started and read its first rows; until then
        // a write still gets through. Writes are tried until one meets the import's lock (each
        // then waits the 5 s busy timeout); the two minutes only guard against a hang.
        var busy: [String: Any]?
        let giveUp = Date().addingTimeInterval(120)
        var attempt = 0
        while busy == nil, Date() < giveUp {
            attempt += 1
            server.sendLine(rpc(attempt, "cart.add", ["cartId": "c\(attempt)", "sku": "OLD-00002", "quantity": 1]))
            guard let reply = server.readJSON(timeout: 30) as? [String: Any] else { break }
            if reply.errorCode == 1010 { busy = reply } else { usleep(20_000) }
        }
        XCTAssertEqual(busy?.errorType, "StoreBusy")
        XCTAssertNotNil(busy?.errorData?["detail"] as? String)
        importer.closeInput()
        XCTAssertEqual(importer.waitForExit(timeout: 60), 0, importer.stderrOutput)
        server.sendLine(rpc(10, "cart.add", ["cartId": "after", "sku": "OLD-00002", "quantity": 1]))
        XCTAssertNotNil((server.readJSON() as? [String: Any])?.result, "the same write succeeds once the import is done")
    }

    /// PostgreSQL: a write that needs a row another transaction holds waits `lock_timeout` (5 s)
    /// and then fails with the retryable StoreBusy (here a psql session holds the stock row).
    func test_postgres_aWriteWaitingForALockedRow_failsWithStoreBusy() throws {
        let store = try CommandStore.postgres()
        defer { store.remove() }
        let server = try ServerProcess(["--db", store.location])
        defer { server.closeInput() }
        server.sendLine(rpc(1, "cart.add", ["cartId": "c", "sku": "SKU-0002", "quantity": 1]))
        XCTAssertNotNil((server.readJSON() as? [String: Any])?.result)
        let holder = try PostgreSQLTestSession(uri: store.location)
        holder.send("BEGIN; UPDATE stock SET available = available WHERE sku = 'SKU-0002';")
        XCTAssertNotNil(holder.waitFor(marker: "locked"))
        server.sendLine(rpc(2, "orders.place", ["cartId": "c", "idempotencyKey": "k"]))
        let reply = server.readJSON(timeout: 30) as? [String: Any]
        XCTAssertEqual(reply?.errorCode, 1010, "\(reply ?? [:])")
        XCTAssertEqual(reply?.errorType, "StoreBusy")
        holder.send("ROLLBACK;")
        XCTAssertNotNil(holder.waitFor(marker: "released"))
        server.sendLine(rpc(3, "orders.place", ["cartId": "c", "idempotencyKey": "k"]))
        XCTAssertNotNil((server.readJSON() as? [String: Any])?.result, "the retry succeeds")
    }

    // MARK: - kill -9

    /// Kills the import at points the test chooses (while it reads, with every row read but stdin
    /// open) and at random moments after the last byte (while it commits, or after): the store is
    /// always exactly as before or exactly as after, and a server opens and serves it.
    func test_kill9_duringAnImport_leavesTheStoreAsBefore_orFullyImported() throws {
        var random = SeededRandom(seed: 36)
        try CommandStore.forEach { store in
            // The state after: the same import on a store of its own, run to the end.
            let reference = store.kind == .sqlite ? CommandStore.sqlite() : try CommandStore.postgres()
            defer { reference.remove() }
            try prepare(reference)
            XCTAssertEqual(try runCommand(["import", "--db", reference.location, "--format", "csv", "-"], input: importedCatalog).status, 0)
            let after = try export(reference)

            try prepare(store)
            let before = try export(store)
            XCTAssertNotEqual(before, after)
            let bytes = Array(importedCatalog.utf8)
            var outcomes: [String] = []
            for trial in 0..<8 {
                let importer = try startImport(store)
                switch trial {
                case 0:
                    importer.send(Array(bytes.prefix(100)))  // inside the header and first rows
                case 1:
                    importer.send(Array(bytes.prefix(bytes.count / 2)))
                case 2:
                    importer.send(bytes)  // every row, but stdin still open
                default:
                    importer.send(bytes)
                    importer.closeInput()
                    usleep(UInt32(random.next(below: 400_000)))
                }
                if trial < 3 { usleep(200_000) }
                kill(importer.process.processIdentifier, SIGKILL)
                _ = importer.waitForExit(timeout: 30)
                let now = try export(store)
                XCTAssertTrue(now == before || now == after, "trial \(trial): the store is neither as before nor as after")
                if trial < 3 { XCTAssertEqual(now, before, "trial \(trial): killed before the end of its input") }
                outcomes.append(now == before ? "before" : "after")
                if now == after {
                    // Back to the state before: the initial catalog as the whole catalog (the new
                    // products archived, the old ones as they were).
                    let reset = try runCommand(["import", "--replace", "--db", store.location, "--format", "csv", "-"], input: initialCatalog)
                    XCTAssertEqual(reset.status, 0, reset.stderr)
                    XCTAssertEqual(try export(store), before)
                }
            }
            // The store still works: a server opens it and answers.
            let server = try ServerProcess(["--db", store.location])
            server.sendLine(rpc(1, "catalog.get", ["sku": "OLD-00001"]))
            XCTAssertNotNil((server.readJSON() as? [String: Any])?.result)
            server.closeInput()
            XCTAssertEqual(server.waitForExit(), 0)
            print("kill -9 outcomes on \(store.kind.rawValue): \(outcomes)")
        }
    }
}
