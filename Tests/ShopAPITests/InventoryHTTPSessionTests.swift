import Foundation
import XCTest
@testable import ShopAPI

/// `InventoryHTTPSession`, the libcurl client behind `--inventory-url`, on its own: each request
/// completes exactly once whatever ends it, and a session whose last owner lets go inside a
/// completion (on the client's own thread) stops without waiting for itself. Answers, bodies,
/// redirects and deadlines are covered through the real binary in `InventoryServiceTests`.
final class InventoryHTTPSessionTests: XCTestCase {
    /// A loopback URL nothing listens on: a port bound and released again.
    private func refusingURL() throws -> URL {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let port = try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress -> UInt16 in
                guard bind(fd, socketAddress, length) == 0, getsockname(fd, socketAddress, &length) == 0 else { throw XCTSkip("no loopback") }
                return UInt16(bigEndian: pointer.pointee.sin_port)
            }
        }
        return try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)/stock"))
    }

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
        let result = outcome(of: { $0.resume() }, session: session, url: try refusingURL())
        XCTAssertEqual(Self.failure(result), .refused)
    }

    func test_cancelBeforeResume_completesOnce_asCancelled_whenResumed() throws {
        let session = try InventoryHTTPSession(maxConnections: 2, maxBodyBytes: 1024)
        let result = outcome(of: { request in
            request.cancel()
            request.resume()
        }, session: session, url: try refusingURL())
        XCTAssertEqual(Self.failure(result), .cancelled)
    }

    func test_sessionReleasedByItsLastRequest_onTheClientThread_stopsWithoutWaitingForItself() throws {
        let url = try refusingURL()
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
