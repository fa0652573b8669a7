import Foundation
import SharedSupport
import XCTest
@testable import ShopAPI

/// A pool whose server is gone does not try to connect on every call: after a failed open it
/// refuses at once (a storage error saying when it will try again) until its backoff has passed;
/// the backoff doubles with each failure up to its bound and starts over after a success.
final class ConnectionPoolReconnectTests: XCTestCase {
    private struct ServerDown: Error {}

    /// A connection that is always reusable; the opener counts attempts and fails while `down`.
    private final class FakeConnection: PooledConnection {
        func rollbackIfInTransaction() {}
        var isReusable: Bool { true }
    }

    private final class FakeServer: @unchecked Sendable {  // all state guarded by `state`
        let state = Locked((down: true, attempts: 0, nowNanoseconds: UInt64(1_000_000_000)))
        var attempts: Int { state.withLock { $0.attempts } }
        func advance(milliseconds: UInt64) { state.withLock { $0.nowNanoseconds += milliseconds * 1_000_000 } }
        func setDown(_ down: Bool) { state.withLock { $0.down = down } }
    }

    private func makePool(_ server: FakeServer, capacity: Int = 1) -> ConnectionPool<FakeConnection> {
        ConnectionPool(capacity: capacity, backoff: ReconnectBackoff(initialMilliseconds: 50, maximumMilliseconds: 2_000),
                       now: { server.state.withLock { $0.nowNanoseconds } }) {
            let down = server.state.withLock { state in
                state.attempts += 1
                return state.down
            }
            if down { throw ServerDown() }
            return FakeConnection()
        }
    }

    /// Borrows once; returns the error, or nil if a connection was lent.
    private func borrowError(_ pool: ConnectionPool<FakeConnection>) -> (any Error)? {
        do {
            try pool.withConnection(interruption: nil) { _ in }
            return nil
        } catch {
            return error
        }
    }

    func test_openFails_nextCallsAreRefusedWithoutConnecting_untilTheBackoffPasses() {
        let server = FakeServer()
        let pool = makePool(server)
        XCTAssertTrue(borrowError(pool) is ServerDown, "the first failure is the opener's own")
        XCTAssertEqual(server.attempts, 1)
        for _ in 0..<100 {
            let error = borrowError(pool)
            XCTAssertNotNil(error as? ReconnectPending, "\(String(describing: error))")
        }
        XCTAssertEqual(server.attempts, 1, "no connection attempt while backing off")
        XCTAssertTrue(String(describing: borrowError(pool)!).contains("50 ms"), "says when it tries again")
        server.advance(milliseconds: 49)
        XCTAssertNotNil(borrowError(pool) as? ReconnectPending)
        server.advance(milliseconds: 1)
        XCTAssertTrue(borrowError(pool) is ServerDown)
        XCTAssertEqual(server.attempts, 2, "tried again once 50 ms had passed")
    }

    func test_backoff_doublesUpToItsBound_andASuccessResetsIt() {
        let server = FakeServer()
        let pool = makePool(server)
        _ = borrowError(pool)
        var delays: [UInt64] = []
        for _ in 0..<8 {
            var waited: UInt64 = 0
            let before = server.attempts
            while server.attempts == before {
                server.advance(milliseconds: 1)
                waited += 1
                _ = borrowError(pool)
            }
            delays.append(waited)
        }
        XCTAssertEqual(delays, [50, 100, 200, 400, 800, 1_600, 2_000, 2_000])
        server.setDown(false)
        server.advance(milliseconds: 2_000)
        XCTAssertNil(borrowError(pool), "the server is back: the next attempt connects")
        XCTAssertNil(borrowError(pool))
        XCTAssertEqual(server.attempts, 10, "the connection is kept and reused")
    }

    func test_afterASuccess_theNextFailureBacksOffFromTheStartAgain() {
        let server = FakeServer()
        let pool = makePool(server, capacity: 2)
        _ = borrowError(pool)
        server.advance(milliseconds: 50)
        _ = borrowError(pool)  // second failure: 100 ms now
        server.setDown(false)
        server.advance(milliseconds: 100)
        XCTAssertNil(borrowError(pool))
        server.setDown(true)
        // Both connections needed at once: the second opening fails, and the backoff is 50 ms again.
        try? pool.withConnection(interruption: nil) { _ in
            XCTAssertTrue(borrowError(pool) is ServerDown)
            XCTAssertTrue(String(describing: borrowError(pool)!).contains("50 ms"))
        }
    }

    /// Two callers that open connections at the same time: each opening records its success while
    /// the other reads the pool's state. Run under ThreadSanitizer (scripts/test's TSan part), this
    /// is the race a PostgreSQL server of the integration tests once hit; the openers meet at a
    /// rendezvous so that both openings are in flight together on every run.
    func test_twoOpeningsAtOnce_bothConnect_andTheBackoffStaysAtRest() {
        let arrived = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
        let openings = Locked(0)
        let pool = ConnectionPool<FakeConnection>(
            capacity: 2, backoff: ReconnectBackoff(initialMilliseconds: 50, maximumMilliseconds: 2_000)
        ) {
            let mine = openings.withLock { count in
                count += 1
                return count - 1
            }
            if mine < 2 {
                arrived[mine].signal()
                _ = arrived[1 - mine].wait(timeout: .now() + 30)
            }
            return FakeConnection()
        }
        let done = DispatchGroup()
        let failures = Locked([String]())
        for _ in 0..<2 {
            DispatchQueue.global().async(group: done) {
                do {
                    try pool.withConnection(interruption: nil) { _ in }
                } catch {
                    failures.withLock { $0.append(String(describing: error)) }
                }
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(failures.withLock { $0 }, [])
        XCTAssertEqual(openings.withLock { $0 }, 2, "each caller opened its own connection")
        XCTAssertNil(borrowError(pool), "both connections are idle now, and lent again")
        XCTAssertEqual(openings.withLock { $0 }, 2, "without opening a third")
    }
}
