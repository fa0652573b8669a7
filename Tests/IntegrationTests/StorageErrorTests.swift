import Foundation
import XCTest

/// `1008 StorageError` through the real binary: the client gets stable words, never the store's
/// own reason (which names its tables); the server's log at `--log-level debug` keeps the reason.
final class StorageErrorTests: XCTestCase {
    func test_droppedTable_answers1008_withoutNamingIt_andTheDebugLogHasTheReason() throws {
        let store = CommandStore.sqlite()
        defer { store.remove() }
        let creating = try ServerProcess(["--db", store.location])
        creating.closeInput()
        XCTAssertEqual(creating.waitForExit(), 0, creating.stderrOutput)
        _ = try sqliteShell(store.location, "DROP TABLE orders")

        for level in ["debug", "warn"] {
            let server = try ServerProcess(["--db", store.location, "--log-level", level])
            server.sendLine(rpc(1, "orders.list"))
            let reply = try XCTUnwrap(server.readJSON() as? [String: Any])
            server.closeInput()
            XCTAssertEqual(server.waitForExit(), 0, server.stderrOutput)
            let error = try XCTUnwrap(reply["error"] as? [String: Any], "\(reply)")
            XCTAssertEqual(error["code"] as? Int, 1008)
            XCTAssertEqual(error["message"] as? String, "The store could not complete the operation")
            let data = try XCTUnwrap(error["data"] as? [String: Any])
            XCTAssertEqual(data["type"] as? String, "StorageError")
            XCTAssertEqual(data["detail"] as? String, "the store failed; the server's log has the reason")
            let replyText = "\(reply)"
            for storeWords in ["no such table", "SQLite", "orders ("] {
                XCTAssertFalse(replyText.contains(storeWords), "\(storeWords) in \(replyText)")
            }
            if level == "debug" {
                XCTAssertTrue(server.stderrOutput.contains("no such table: orders"), server.stderrOutput)
            } else {
                XCTAssertFalse(server.stderrOutput.contains("no such table"), "below debug the log stays quiet: \(server.stderrOutput)")
            }
        }
    }
}
