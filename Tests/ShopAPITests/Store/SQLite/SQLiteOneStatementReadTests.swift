import XCTest
@testable import ShopAPI

/// `readOneStatement` on SQLite runs its one statement in autocommit mode (no `BEGIN`/`COMMIT`),
/// while `read` opens a transaction around its body; either way the connection goes back to its
/// pool outside any transaction, and an interruption that already fired stops both before they start.
final class SQLiteOneStatementReadTests: XCTestCase {
    func test_readsAreLocal_onlyForSQLite() throws {
        XCTAssertTrue(try ShopService.open(path: ":memory:").readsAreLocal)
        XCTAssertFalse(InMemoryShopStore(products: []).readsAreLocal, "a store that does not say so is not local")
    }

    func test_oneStatementReads_runWithoutATransaction_andOrdinaryReadsInOne() throws {
        let database = TemporaryDatabase()
        defer { database.remove() }
        let store = try SQLiteShopStore.open(path: database.path)
        let connection = { (transaction: any ShopReadTransaction) in (transaction as! SQLiteShopTransaction).connection }

        XCTAssertFalse(try store.read(interruption: nil) { connection($0).isAutocommit }, "read: inside BEGIN … COMMIT")
        XCTAssertTrue(try store.readOneStatement(interruption: nil) { connection($0).isAutocommit }, "one statement: autocommit")
        let afterwards = try store.readOneStatement(interruption: nil) { transaction in
            (try transaction.product(sku: "no-such-sku"), connection(transaction).isAutocommit)
        }
        XCTAssertNil(afterwards.0)
        XCTAssertTrue(afterwards.1, "each read leaves its connection outside any transaction")

        let fired = TestInterruption(interrupted: true)
        XCTAssertThrowsError(try store.readOneStatement(interruption: fired) { try $0.product(sku: "x") }) { error in
            XCTAssertEqual(error as? ShopError, .interrupted)
        }
    }
}
