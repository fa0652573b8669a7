import XCTest
@testable import ShopAPI

/// How `PostgreSQLConnection` saves round trips: `inOneRoundTrip` (several statements and their
/// commit in one round trip, pipeline mode) behaves as one transaction, and a BEGIN held back by
/// `beginWithFirstStatement` opens the transaction its first statement runs in. Skipped, with a
/// message, when `SHOP_RPC_TEST_POSTGRES_URI` is not set.
final class PostgreSQLRoundTripTests: XCTestCase {
    private var database: PostgreSQLTestDatabase!
    private var connection: PostgreSQLConnection!

    override func setUpWithError() throws {
        database = try PostgreSQLTestDatabase()
        connection = try PostgreSQLConnection(uri: database.uri)
        try connection.execute("CREATE TABLE t (k TEXT PRIMARY KEY, v BIGINT NOT NULL)")
    }

    override func tearDown() {
        connection = nil
        database?.drop()
        super.tearDown()
    }

    private func values() throws -> [String: Int] {
        Dictionary(uniqueKeysWithValues: try connection.query("SELECT k, v FROM t", []) { ($0.text(0), $0.int(1)) })
    }

    func test_allStatementsSucceed_areCommitted_andTheLastOnesRowsReturned() throws {
        let rows = try connection.inOneRoundTrip([
            PostgreSQLCall(sql: "INSERT INTO t VALUES ($1, $2)", arguments: ["a", 1]),
            PostgreSQLCall(sql: "INSERT INTO t VALUES ($1, $2) RETURNING k, v * 10", arguments: ["b", 2]),
        ]) { "\($0.text(0))=\($0.int(1))" }
        XCTAssertEqual(rows, ["b=20"])
        XCTAssertEqual(try values(), ["a": 1, "b": 2])
        XCTAssertFalse(connection.isInTransaction)
        XCTAssertTrue(connection.isReusable)
    }

    func test_aLaterStatementFails_nothingIsKept_theErrorIsThrown_andTheConnectionIsReusable() throws {
        try connection.execute("INSERT INTO t VALUES ('taken', 0)")
        XCTAssertThrowsError(try connection.inOneRoundTrip([
            PostgreSQLCall(sql: "INSERT INTO t VALUES ($1, $2)", arguments: ["new", 1]),
            PostgreSQLCall(sql: "INSERT INTO t VALUES ($1, $2)", arguments: ["taken", 2]),
            PostgreSQLCall(sql: "SELECT k FROM t", arguments: []),
        ]) { $0.text(0) }) { error in
            XCTAssertTrue((error as? PostgreSQLError)?.isUniqueViolation == true, "\(error)")
        }
        XCTAssertEqual(try values(), ["taken": 0], "the first insert was rolled back with the failed one")
        XCTAssertTrue(connection.isReusable)
        XCTAssertEqual(try connection.inOneRoundTrip([PostgreSQLCall(sql: "SELECT count(*) FROM t", arguments: [])]) { $0.int(0) }, [1])
    }

    func test_aLocalSettingFromOneStatement_holdsForTheNext_andNotAfterTheCommit() throws {
        let rows = try connection.inOneRoundTrip([
            PostgreSQLCall(sql: "SELECT set_config('statement_timeout', $1, true)", arguments: ["1234"]),
            PostgreSQLCall(sql: "SELECT current_setting('statement_timeout')", arguments: []),
        ]) { $0.text(0) }
        XCTAssertEqual(rows, ["1234ms"], "same transaction")
        XCTAssertEqual(try connection.query("SELECT current_setting('statement_timeout')", []) { $0.text(0) }, ["30s"], "back to the session's")
    }

    func test_aThrowingRowMapper_isThrownAfterTheRoundTrip_leavingTheConnectionReusable() throws {
        struct Refused: Error {}
        XCTAssertThrowsError(try connection.inOneRoundTrip([PostgreSQLCall(sql: "SELECT 1", arguments: [])]) { _ -> Int in throw Refused() }) {
            XCTAssertTrue($0 is Refused)
        }
        XCTAssertTrue(connection.isReusable)
    }

    // MARK: - A held-back BEGIN

    private func isolation() throws -> String {
        try connection.query("SELECT current_setting('transaction_isolation')", []) { $0.text(0) }[0]
    }

    func test_heldBackBegin_opensTheTransactionTheFirstStatementRunsIn_withItsSettings() throws {
        connection.beginWithFirstStatement([
            PostgreSQLCall(sql: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", arguments: []),
            PostgreSQLCall(sql: "SELECT set_config('statement_timeout', $1, true)", arguments: ["4321"]),
        ])
        XCTAssertFalse(connection.isInTransaction, "nothing sent yet")
        XCTAssertEqual(try isolation(), "repeatable read")
        XCTAssertTrue(connection.isInTransaction)
        XCTAssertEqual(try connection.query("SELECT current_setting('statement_timeout')", []) { $0.text(0) }, ["4321ms"])
        XCTAssertThrowsError(try connection.run("INSERT INTO t VALUES ($1, $2)", ["x", 1]), "read only") { error in
            XCTAssertEqual((error as? PostgreSQLError)?.sqlState, "25006")
        }
        connection.rollbackIfInTransaction()
        XCTAssertFalse(connection.isInTransaction)
        XCTAssertEqual(try isolation(), "read committed", "the session's default again")
    }

    func test_heldBackBegin_isSentBeforeAStatementWithoutParameters() throws {
        connection.beginWithFirstStatement([PostgreSQLCall(sql: "BEGIN ISOLATION LEVEL SERIALIZABLE", arguments: [])])
        try connection.execute("INSERT INTO t VALUES ('e', 5)")
        XCTAssertTrue(connection.isInTransaction)
        XCTAssertEqual(try isolation(), "serializable")
        try connection.commit()
        XCTAssertFalse(connection.isInTransaction)
        XCTAssertEqual(try values(), ["e": 5])
    }

    func test_heldBackBegin_withoutAStatement_isNeverSent() throws {
        connection.beginWithFirstStatement([PostgreSQLCall(sql: "BEGIN ISOLATION LEVEL REPEATABLE READ", arguments: [])])
        try connection.commit()
        XCTAssertEqual(try isolation(), "read committed", "the next statement runs outside that transaction")
        XCTAssertFalse(connection.isInTransaction)

        connection.beginWithFirstStatement([PostgreSQLCall(sql: "BEGIN ISOLATION LEVEL REPEATABLE READ", arguments: [])])
        connection.rollbackIfInTransaction()
        XCTAssertEqual(try isolation(), "read committed")
        XCTAssertTrue(connection.isReusable)
    }
}
