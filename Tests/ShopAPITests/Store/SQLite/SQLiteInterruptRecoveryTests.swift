import CSQLite
import XCTest
@testable import ShopAPI

/// A SQLite connection interrupted while one of its statements is still running (stepped, not yet
/// reset) comes back clean from `rollbackIfInTransaction`: no transaction open, nothing of it
/// kept, and its next statements not interrupted. `sqlite3_interrupt` stays in force until no
/// statement of the connection runs, so until then every statement fails, ROLLBACK included. FTS5
/// leaves such a statement of its own (the blob handle it reads the index with) running between
/// the statements of a write transaction, which is how an interrupted `admin.products.upsert`
/// left the writer connection in a transaction that nothing could end.
final class SQLiteInterruptRecoveryTests: XCTestCase {
    func test_rollbackIfInTransaction_whileAStatementStillRuns_endsTheTransaction_andTheInterrupt() throws {
        let connection = try SQLiteConnection.open(path: ":memory:", as: .inMemory)
        try connection.execute("CREATE TABLE plain (x INTEGER)")
        try connection.execute("INSERT INTO plain VALUES (1), (2)")
        try connection.execute("BEGIN IMMEDIATE")
        try connection.execute("INSERT INTO plain VALUES (3)")
        let running = try connection.prepare("SELECT x FROM plain")
        XCTAssertTrue(try running.step(), "stepped once: the statement runs until reset")
        sqlite3_interrupt(connection.handle)
        XCTAssertThrowsError(try connection.execute("INSERT INTO plain VALUES (4)"), "the interrupt stays in force")

        connection.rollbackIfInTransaction()

        XCTAssertTrue(connection.isAutocommit, "the transaction was rolled back")
        XCTAssertEqual(try connection.query("SELECT count(*) FROM plain", []) { $0.int(0) }, [2], "nothing of it kept")
        try connection.execute("INSERT INTO plain VALUES (5)")
        XCTAssertEqual(try connection.query("SELECT count(*) FROM plain", []) { $0.int(0) }, [3], "no longer interrupted")
    }
}
