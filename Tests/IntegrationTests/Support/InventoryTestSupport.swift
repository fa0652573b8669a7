import Foundation
import XCTest

// What the inventory tests share: a service and a server started for one test and stopped on
// every exit path (teardown blocks), and the check request.

extension XCTestCase {
    /// `scripts/inventory-test-service`, stopped when the test ends.
    func startInventoryService() throws -> InventoryTestService {
        let service = try InventoryTestService()
        addTeardownBlock { service.stop() }
        return service
    }

    /// shop-rpc on a throw-away store with `extra` flags, its input closed when the test ends.
    func startInventoryServer(_ extra: [String]) throws -> ServerProcess {
        let server = try ServerProcess(["--db", ":memory:"] + extra)
        addTeardownBlock { server.closeInput(); _ = server.waitForExit(timeout: 20) }
        return server
    }

    /// The `rpc.stats` section `inventory` of `server`, or nil (a test failure) if it has none.
    func inventoryStats(_ server: ServerProcess, file: StaticString = #filePath, line: UInt = #line) -> [String: Any]? {
        server.sendLine(rpc("stats", "rpc.stats"))
        let sections = (server.readJSON(file: file, line: line) as? [String: Any])?.result?["sections"] as? [String: Any]
        let section = sections?["inventory"] as? [String: Any]
        XCTAssertNotNil(section, "no inventory section in rpc.stats", file: file, line: line)
        return section
    }
}

extension XCTestCase {
    /// Polls `rpc.stats`' inventory section until `condition` holds; returns the last one seen.
    /// `timeout` is a hang guard: the condition is one the server reaches whatever its speed.
    func waitForInventoryStats(_ server: ServerProcess, timeout: TimeInterval = 30, file: StaticString = #filePath, line: UInt = #line,
                               until condition: ([String: Any]) -> Bool) -> [String: Any]? {
        let limit = Date().addingTimeInterval(timeout)
        var last: [String: Any]?
        repeat {
            last = inventoryStats(server, file: file, line: line)
            if let last, condition(last) { return last }
            usleep(20_000)
        } while Date() < limit
        XCTFail("rpc.stats never reached the awaited state: \(last ?? [:])", file: file, line: line)
        return last
    }
}

/// An `inventory.check` request for `skus`, with `_meta.deadlineMs` when given.
func inventoryCheck(_ id: Int, _ skus: [String], deadlineMs: Int? = nil) -> String {
    var params: [String: Any] = ["skus": skus]
    if let deadlineMs { params["_meta"] = ["deadlineMs": deadlineMs] }
    return rpc(id, "inventory.check", params)
}
