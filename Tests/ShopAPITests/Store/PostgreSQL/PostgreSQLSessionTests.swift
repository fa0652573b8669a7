import XCTest
@testable import ShopAPI

/// The session every `PostgreSQLConnection` sets up as it connects, read back from the server.
/// Skipped, with a message, when `SHOP_RPC_TEST_POSTGRES_URI` is not set.
final class PostgreSQLSessionTests: XCTestCase {
    private var database: PostgreSQLTestDatabase!
    private var connection: PostgreSQLConnection!

    override func setUpWithError() throws {
        database = try PostgreSQLTestDatabase()
        connection = try PostgreSQLConnection(uri: database.uri)
    }

    override func tearDown() {
        connection = nil
        database?.drop()
        super.tearDown()
    }

    /// The setting's value in its base unit (milliseconds for the timeouts), as `pg_settings` has it.
    private func setting(_ name: String) throws -> String {
        try connection.query("SELECT setting FROM pg_settings WHERE name = $1", [name]) { $0.text(0) }.first ?? ""
    }

    func test_session_isDurable_readCommitted_UTC_withItsTimeouts() throws {
        XCTAssertEqual(try setting("synchronous_commit"), "on")
        XCTAssertEqual(try setting("default_transaction_isolation"), "read committed")
        XCTAssertEqual(try setting("TimeZone"), "UTC")
        XCTAssertEqual(try setting("statement_timeout"), "\(PostgreSQLConnection.statementTimeoutMilliseconds)")
        XCTAssertEqual(try setting("lock_timeout"), "\(PostgreSQLConnection.lockTimeoutMilliseconds)")
    }

    /// Without it, a statement planned under `enable_seqscan = off` (as `shop_place_order`'s are)
    /// whose only plan is a scan gets a cost past `jit_above_cost`, and is compiled at every
    /// execution: an order took 17 ms of server CPU instead of 0.4.
    func test_session_hasJITCompilationOff() throws {
        XCTAssertEqual(try setting("jit"), "off")
    }
}
