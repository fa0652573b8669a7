import CSQLite
import Foundation
import XCTest
@testable import ShopAPI

/// A connection's interrupt switch is reused by every caller; a handler that fires late (taken by
/// a cancel before its caller unregistered it) must not stop the next caller's statement.
///
/// Deterministic: the firing happens inside the running statement, from a SQL function
/// (`fire()`), so no timing decides whether it lands during the statement.
final class InterruptSwitchTests: XCTestCase {
    /// An interruption that remembers its handler even after it is unregistered, as a cancel that
    /// copied its handlers just before the unregistration would.
    private final class LeakyInterruption: ShopInterruption, @unchecked Sendable {
        private let lock = NSLock()
        private var handler: (@Sendable () -> Void)?
        var isInterrupted: Bool { false }
        func addInterruptHandler(_ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
            lock.withLock { handler = action }
            return {}
        }
        func fireLeakedHandler() { lock.withLock { handler }?() }
    }

    /// What `fire()` in SQL calls.
    private final class FireAction {
        var action: () -> Void = {}
    }

    private var connection: SQLiteConnection!
    private let fireAction = FireAction()
    private static let querySQL = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 100000) SELECT fire() + count(*) FROM n"

    override func setUpWithError() throws {
        connection = try SQLiteConnection.open(path: ":memory:", as: .inMemory)
        let code = sqlite3_create_function_v2(connection.handle, "fire", 0, SQLITE_UTF8, Unmanaged.passUnretained(fireAction).toOpaque(), { context, _, _ in
            Unmanaged<FireAction>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue().action()
            sqlite3_result_int(context, 0)
        }, nil, nil, nil)
        XCTAssertEqual(code, SQLITE_OK)
    }

    override func tearDown() {
        connection = nil
    }

    private func runQuery(_ interruption: any ShopInterruption) throws -> [Int] {
        try connection.withInterrupts(from: interruption) {
            try connection.query(Self.querySQL, []) { $0.int(0) }
        }
    }

    func test_theCurrentCallersHandler_interruptsItsStatement() throws {
        let current = LeakyInterruption()
        fireAction.action = { current.fireLeakedHandler() }
        XCTAssertThrowsError(try runQuery(current)) { XCTAssertEqual(ShopError(storeError: $0), .interrupted) }
    }

    func test_aLateHandlerOfAnEarlierCaller_doesNotInterruptTheNextOne() throws {
        let earlier = LeakyInterruption()
        XCTAssertEqual(try connection.withInterrupts(from: earlier) { try connection.query("SELECT 1", []) { $0.int(0) } }, [1])
        fireAction.action = { earlier.fireLeakedHandler() }
        XCTAssertEqual(try runQuery(LeakyInterruption()), [100_000])
    }
}
