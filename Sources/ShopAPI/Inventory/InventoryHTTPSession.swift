import CCurlClient
import Dispatch
import FoundationEssentials  // Data
import SharedSupport

/// One HTTP client for every request to the inventory service: libcurl's multi interface on a
/// thread of its own (`CCurlClient.h`), with a body size limit that holds while the body arrives.
/// libcurl is loaded when the session is made, so a server without `--inventory-url` never loads
/// it. Thread-safe.
///
/// A request from `makeRequest`, once resumed, calls its completion **exactly once**, on the
/// client's thread: with the status and body of a complete answer, or with how it failed
/// (`.cancelled` after `cancel()`, which stops the transfer and closes its connection).
final class InventoryHTTPSession: Sendable {
    /// How a request ended without a complete answer.
    enum Failure: Error, Equatable {
        case refused, unresolved, timedOut, connectionLost, tooLarge, cancelled
        case other(String)
    }

    /// A complete answer, whatever its status.
    struct Answer {
        let status: Int
        let body: Data
    }

    typealias Completion = @Sendable (Result<Answer, Failure>) -> Void

    /// The C client; destroyed with the session. Its functions are thread-safe.
    private nonisolated(unsafe) let client: OpaquePointer

    /// - Throws: why the client cannot be made (libcurl missing or too old).
    init(maxConnections: Int, maxBodyBytes: Int) throws(HTTPInventorySource.Unavailable) {
        var error: UnsafePointer<CChar>?
        guard let client = shop_http_client_create(max(1, maxConnections), max(1, maxBodyBytes), &error) else {
            throw HTTPInventorySource.Unavailable(description: error.map { String(cString: $0) } ?? "cannot set up the HTTP client")
        }
        self.client = client
    }

    deinit {
        shop_http_client_destroy(client)  // ends every request still running with `.cancelled`
    }

    /// The header that tells the service how long the caller will wait for this request
    /// (protocol.md, section 7): whole milliseconds left until the deadline when it is sent.
    static let timeoutHeaderName = "X-Request-Timeout-Ms"

    /// A GET of `url` with `Accept: application/json` and, unless `timeoutMilliseconds` is nil,
    /// `X-Request-Timeout-Ms: timeoutMilliseconds`, not yet started: the caller keeps it (for
    /// `cancel()`) before it calls `resume()`.
    func makeRequest(_ url: URL, timeoutMilliseconds: Int? = nil, completion: @escaping Completion) -> Request {
        Request(session: self, url: url.absoluteString, header: Self.timeoutHeader(milliseconds: timeoutMilliseconds), completion: completion)
    }

    /// The `X-Request-Timeout-Ms` line for `milliseconds` (0 for a negative count), or nil without one.
    static func timeoutHeader(milliseconds: Int?) -> String? {
        milliseconds.map { "\(timeoutHeaderName): \(max(0, $0))" }
    }

    // MARK: - Request

    /// One GET: `resume()` starts it, `cancel()` stops it whenever it is called (before `resume`
    /// too: then it ends as soon as it is resumed). Thread-safe; completes exactly once after `resume`.
    final class Request: Sendable {
        private enum State {
            case made
            case running(id: UInt64)
            case cancelledBeforeStart
            case ended
        }

        private let session: InventoryHTTPSession
        private let url: String
        private let header: String?
        private let completion: Completion
        private let state = Locked(State.made)

        fileprivate init(session: InventoryHTTPSession, url: String, header: String?, completion: @escaping Completion) {
            self.session = session
            self.url = url
            self.header = header
            self.completion = completion
        }

        func resume() {
            let startFailed = state.withLock { state -> Failure? in
                guard case .made = state else {
                    if case .cancelledBeforeStart = state {
                        state = .ended
                        return .cancelled
                    }
                    return nil  // resumed twice: nothing more
                }
                // The completion's context holds the request until the client's thread ends it.
                let context = Unmanaged.passRetained(self).toOpaque()
                let id = shop_http_get(session.client, url, header, { context, result in
                    guard let context, let result else { return }
                    let request = Unmanaged<Request>.fromOpaque(context).takeRetainedValue()
                    request.end(with: Request.outcome(result.pointee))
                }, context)
                guard id != 0 else {
                    Unmanaged<Request>.fromOpaque(context).release()
                    state = .ended
                    return .other("out of memory")
                }
                state = .running(id: id)
                return nil
            }
            if let startFailed { completion(.failure(startFailed)) }
        }

        func cancel() {
            let running = state.withLock { state -> UInt64? in
                switch state {
                case .made:
                    state = .cancelledBeforeStart
                    return nil
                case .running(let id):
                    return id
                case .cancelledBeforeStart, .ended:
                    return nil
                }
            }
            if let running { shop_http_cancel(session.client, running) }  // a late cancel does nothing
        }

        /// The client's thread: the request ended (exactly once).
        private func end(with outcome: Result<Answer, Failure>) {
            state.withLock { $0 = .ended }
            completion(outcome)
        }

        private static func outcome(_ result: shop_http_result) -> Result<Answer, Failure> {
            switch result.outcome {
            case SHOP_HTTP_ANSWERED:
                let body = result.body.map { Data(bytes: $0, count: result.body_length) } ?? Data()
                return .success(Answer(status: result.status, body: body))
            case SHOP_HTTP_REFUSED: return .failure(.refused)
            case SHOP_HTTP_UNRESOLVED: return .failure(.unresolved)
            case SHOP_HTTP_TIMED_OUT: return .failure(.timedOut)
            case SHOP_HTTP_CONNECTION_LOST: return .failure(.connectionLost)
            case SHOP_HTTP_TOO_LARGE: return .failure(.tooLarge)
            case SHOP_HTTP_CANCELLED: return .failure(.cancelled)
            default: return .failure(.other(result.message.map { String(cString: $0) } ?? "unknown error"))
            }
        }
    }
}
