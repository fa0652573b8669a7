import Foundation
import XCTest

/// The real binary on PostgreSQL while the database server restarts under it: every acknowledged
/// order must survive, no call may hang, and the process reconnects by itself. (A shop-rpc process
/// killed with SIGKILL mid-stream is `ShopSessionTests`' kill -9 test, run on both stores.) Needs
/// the cluster of `scripts/with-postgres` (skipped otherwise).
final class PostgreSQLFaultTests: XCTestCase {
    private var database: PostgreSQLScratchDatabase!

    override func setUpWithError() throws {
        database = try PostgreSQLScratchDatabase()
    }

    override func tearDown() {
        database?.drop()
        super.tearDown()
    }

    // MARK: - PostgreSQL restarts while serving

    func test_serverRestart_failsCallsInFlightPromptly_reconnects_andKeepsEveryAcknowledgedOrder() throws {
        guard let pgCtl = ProcessInfo.processInfo.environment["SHOP_RPC_TEST_POSTGRES_CTL"] else {
            throw XCTSkip("needs SHOP_RPC_TEST_POSTGRES_CTL (scripts/with-postgres sets it)")
        }
        let server = try ServerProcess(["--db", database.uri, "--db-pool", "4"])
        defer { server.closeInput(); _ = server.waitForExit() }
        let carts = 40
        addCarts(server, prefix: "r", count: carts)
        _ = call(server, "add-blocked", "cart.add", ["cartId": "blocked", "sku": "SKU-0031", "quantity": 1])

        // A call surely in flight at the restart: another session holds the stock row, so the
        // order waits inside PostgreSQL until the restart ends that wait.
        let blocker = try PostgreSQLTestSession(uri: database.uri)
        blocker.send("BEGIN; SELECT 1 FROM stock WHERE sku = 'SKU-0031' FOR UPDATE;")
        XCTAssertNotNil(blocker.waitFor(marker: "row-locked"))
        server.sendLine(rpc("blocked", "orders.place", ["cartId": "blocked", "idempotencyKey": "blocked"]))
        let watcher = try PostgreSQLTestSession(uri: database.uri)
        var waiting: String?
        XCTAssertTrue(poll(timeout: 30) {
            waiting = watcher.query("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'shop-rpc' AND wait_event_type = 'Lock'")
            return waiting == "1"
        }, "the order reached PostgreSQL and waits for the row lock: \(waiting ?? "no answer")")

        // Half the orders stream in; the restart comes while they may still be running. An
        // immediate shutdown (SIGQUIT: every backend exits at once, releasing nothing; then crash
        // recovery replays every committed order) ends the waiting backend whatever order the
        // postmaster signals its backends in. A fast one (SIGTERM) could end the blocker first,
        // whose lock release would let the waiting order run on and commit before its own
        // signal arrived.
        server.send((0..<(carts / 2)).map { rpc("place-\($0)", "orders.place", ["cartId": "r\($0)", "idempotencyKey": "r\($0)"]) + "\n" }.joined())
        XCTAssertEqual(runPgCtl(pgCtl, ["-m", "immediate", "-w", "-t", "60", "restart"]), 0)

        let started = Date()
        var replies = server.readReplies(carts / 2 + 1, timeout: 60)
        XCTAssertEqual(replies.count, carts / 2 + 1, "every call in flight was answered")
        let blocked = try XCTUnwrap(replies.removeValue(forKey: "blocked"))
        XCTAssertEqual(blocked.errorCode, 1008, "the call waiting in PostgreSQL fails with StorageError: \(blocked)")
        XCTAssertLessThan(Date().timeIntervalSince(started), 20, "promptly, not at its 30 s deadline")
        var acknowledged = Set<String>()
        for (id, reply) in replies {
            if let orderId = reply.result?["orderId"] as? String {
                acknowledged.insert(orderId)
            } else {
                XCTAssertEqual(reply.errorCode, 1008, "\(id): an order cut by the restart fails with StorageError: \(reply)")
            }
        }

        // Without restarting shop-rpc, calls succeed again once the pool has reconnected.
        XCTAssertTrue(poll(timeout: 30) { call(server, "probe", "catalog.get", ["sku": "SKU-0001"]).result != nil },
                      "the pool reconnected")
        // Every cart again (the same keys: an order whose reply was lost returns the same order).
        server.send((0..<carts).map { rpc("again-\($0)", "orders.place", ["cartId": "r\($0)", "idempotencyKey": "r\($0)"]) + "\n" }.joined())
        let again = server.readReplies(carts)
        XCTAssertEqual(again.count, carts)
        var placed = Set<String>()
        for (id, reply) in again {
            guard let orderId = reply.result?["orderId"] as? String else { XCTFail("\(id) after the reconnect: \(reply)"); continue }
            placed.insert(orderId)
        }
        XCTAssertTrue(acknowledged.isSubset(of: placed), "a retried key returns the order acknowledged before the restart")
        XCTAssertEqual(try storedOrderIds(server), placed, "every acknowledged order is stored, once")
    }

    // MARK: - Helpers

    private func call(_ server: ServerProcess, _ id: Any, _ method: String, _ params: [String: Any]? = nil,
                      file: StaticString = #filePath, line: UInt = #line) -> [String: Any] {
        server.sendLine(rpc(id, method, params))
        return server.readJSON(timeout: 60, file: file, line: line) as? [String: Any] ?? [:]
    }

    private func available(_ server: ServerProcess, _ sku: String) -> Int {
        let reply = call(server, "stock-\(sku)", "inventory.check", ["skus": [sku]])
        return ((reply.result?["levels"] as? [[String: Any]])?.first?["available"] as? Int) ?? -1
    }

    /// Carts `<prefix>0…` of one unit each, of a different product in stock per cart.
    private func addCarts(_ server: ServerProcess, prefix: String, count: Int, file: StaticString = #filePath, line: UInt = #line) {
        let candidates = (101...200).map { String(format: "SKU-%04d", $0) }
        let levels = call(server, "levels", "inventory.check", ["skus": candidates]).result?["levels"] as? [[String: Any]] ?? []
        let inStock = levels.filter { ($0["available"] as? Int ?? 0) > 0 }.compactMap { $0["sku"] as? String }
        guard inStock.count >= count else {
            return XCTFail("only \(inStock.count) of \(candidates.count) products in stock", file: file, line: line)
        }
        server.send((0..<count).map { index in
            rpc("add-\(prefix)\(index)", "cart.add", ["cartId": "\(prefix)\(index)", "sku": inStock[index], "quantity": 1]) + "\n"
        }.joined())
        let added = server.readReplies(count, file: file, line: line)
        XCTAssertTrue(added.count == count && added.values.allSatisfy { $0.result != nil }, "\(added)", file: file, line: line)
    }

    /// Every order id in the store, through `orders.list` pages.
    private func storedOrderIds(_ server: ServerProcess) throws -> Set<String> {
        var ids: [String] = []
        var cursor: String?
        repeat {
            var params: [String: Any] = ["limit": 200]
            if let cursor { params["cursor"] = cursor }
            let page = call(server, "list", "orders.list", params)
            let items = try XCTUnwrap(page.result?["items"] as? [[String: Any]], "\(page)")
            ids += items.compactMap { $0["orderId"] as? String }
            cursor = page.result?["nextCursor"] as? String
        } while cursor != nil
        XCTAssertEqual(ids.count, Set(ids).count, "no order listed twice")
        return Set(ids)
    }

    /// Calls `condition` every 100 ms until it holds or `timeout` passes (a hang guard only).
    private func poll(timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
        let limit = Date().addingTimeInterval(timeout)
        while Date() < limit {
            if condition() { return true }
            usleep(100_000)
        }
        return false
    }

    /// Runs pg_ctl and waits for it with a hang guard; nil if it did not end. posix_spawn and
    /// waitpid, not `Process`, whose exit detection a server outliving pg_ctl could hold up.
    private func runPgCtl(_ path: String, _ arguments: [String], timeout: TimeInterval = 90) -> Int32? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in [Int32(0), 1, 2] {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return nil }
        var status: Int32 = 0
        guard poll(timeout: timeout, { waitpid(pid, &status, WNOHANG) == pid }) else {
            kill(pid, SIGKILL)
            return nil
        }
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    }
}
