import Foundation
import XCTest
@testable import ShopAPI

/// `InventoryHTTPSession`, the libcurl client behind `--inventory-url`, on its own: each request
/// completes exactly once whatever ends it, and a session whose last owner lets go inside a
/// completion (on the client's own thread) stops without waiting for itself. Answers, bodies,
/// redirects and deadlines are covered through the real binary in `InventoryServiceTests`.
final class InventoryHTTPSessionTests: XCTestCase {
    private final class Outcome: @unchecked Sendable {  // `value` is guarded by `lock`
        let lock = NSLock()
        var value: Result<InventoryHTTPSession.Answer, InventoryHTTPSession.Failure>?
    }

    private func outcome(of start: (InventoryHTTPSession.Request) -> Void, session: InventoryHTTPSession, url: URL) -> Result<InventoryHTTPSession.Answer, InventoryHTTPSession.Failure>? {
        let done = expectation(description: "completed")  // over-fulfilling it fails the test
        let result = Outcome()
        let request = session.makeRequest(url) { outcome in
            result.lock.withLock { result.value = outcome }
            done.fulfill()
        }
        start(request)
        wait(for: [done], timeout: 20)
        return result.lock.withLock { result.value }
    }

    private static func failure(_ result: Result<InventoryHTTPSession.Answer, InventoryHTTPSession.Failure>?) -> InventoryHTTPSession.Failure? {
        guard case .failure(let failure)? = result else { return nil }
        return failure
    }

    func test_refusedConnection_completesOnce_asRefused() throws {
        let session = try InventoryHTTPSession(maxConnections: 2, maxBodyBytes: 1024)
        let result = outcome(of: { $0.resume() }, session: session, url: try refusingLoopbackURL())
        XCTAssertEqual(Self.failure(result), .refused)
    }

    func test_cancelBeforeResume_completesOnce_asCancelled_whenResumed() throws {
        let session = try InventoryHTTPSession(maxConnections: 2, maxBodyBytes: 1024)
        let result = outcome(of: { request in
            request.cancel()
            request.resume()
        }, session: session, url: try refusingLoopbackURL())
        XCTAssertEqual(Self.failure(result), .cancelled)
    }

    func test_sessionReleasedByItsLastRequest_onTheClientThread_stopsWithoutWaitingForItself() throws {
        let url = try refusingLoopbackURL()
        var session: InventoryHTTPSession? = try InventoryHTTPSession(maxConnections: 1, maxBodyBytes: 1024)
        let done = expectation(description: "completed")
        let request = session!.makeRequest(url) { _ in done.fulfill() }
        session = nil  // only the request holds it now; the client's thread lets it go after completing
        request.resume()
        wait(for: [done], timeout: 20)
        // A new session (a new client thread) still works after the first one freed itself.
        let next = try InventoryHTTPSession(maxConnections: 1, maxBodyBytes: 1024)
        let result = outcome(of: { $0.resume() }, session: next, url: url)
        XCTAssertEqual(Self.failure(result), .refused)
    }
}
