import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RPCServer  // Locked: a lock ThreadSanitizer can see

// MARK: - InventoryHTTPSession

/// One `URLSession` for every request to the inventory service, with a body size limit that holds
/// while the body arrives (a completion-handler task would buffer an endless body until the
/// deadline). Thread-safe.
///
/// A task from `makeTask`, once resumed, calls `completion` **exactly once**, on the session's serial delegate queue, with the
/// body and response, or the error that ended the task (`URLError.cancelled` after
/// `URLSessionTask.cancel()`, which aborts the transfer and closes its connection). A body over
/// `maxBodyBytes` cancels the task and completes with `BodyTooLarge`.
final class InventoryHTTPSession: Sendable {
    /// The body passed `maxBodyBytes`; the task was cancelled.
    struct BodyTooLarge: Error {}

    typealias Completion = @Sendable (Result<(Data, HTTPURLResponse), any Error>) -> Void

    private let session: URLSession
    private let delegate: Delegate

    init(maxConnections: Int, maxBodyBytes: Int) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = max(1, maxConnections)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        // Time is bounded by each call's deadline, which cancels the task; these only back it up.
        configuration.timeoutIntervalForRequest = 60
        configuration.timeoutIntervalForResource = 300
        delegate = Delegate(maxBodyBytes: maxBodyBytes)
        let queue = OperationQueue()
        queue.name = "ShopAPI.inventory.http"
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    /// A GET of `url`, not yet resumed: the caller keeps it (for `cancel()`) before it resumes it.
    func makeTask(_ url: URL, completion: @escaping Completion) -> URLSessionTask {
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let task = session.dataTask(with: request)
        delegate.register(task, completion: completion)
        return task
    }
}

// MARK: - Delegate

extension InventoryHTTPSession {
    /// Collects each task's body up to the limit and completes it once. Its callbacks run on the
    /// session's serial delegate queue; `register` runs on the caller's thread, so the per-task
    /// table is behind a lock.
    private final class Delegate: NSObject, URLSessionDataDelegate, Sendable {
        private struct Transfer {
            var body = Data()
            var response: HTTPURLResponse?
            var tooLarge = false
            let completion: Completion
        }

        private let maxBodyBytes: Int
        private let transfers = Locked([Int: Transfer]())

        init(maxBodyBytes: Int) {
            self.maxBodyBytes = maxBodyBytes
        }

        func register(_ task: URLSessionTask, completion: @escaping Completion) {
            transfers.withLock { $0[task.taskIdentifier] = Transfer(completion: completion) }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
            let tooLarge = response.expectedContentLength > Int64(maxBodyBytes)
            transfers.withLock { transfers in
                transfers[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse
                if tooLarge { transfers[dataTask.taskIdentifier]?.tooLarge = true }
            }
            completionHandler(tooLarge ? .cancel : .allow)
            // On Linux `.cancel` alone does not stop the transfer (the body keeps arriving).
            if tooLarge { dataTask.cancel() }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let overLimit = transfers.withLock { transfers -> Bool in
                let id = dataTask.taskIdentifier
                // Only the count and flag are read, so the body buffer stays uniquely referenced.
                guard let (count, tooLarge) = transfers[id].map({ ($0.body.count, $0.tooLarge) }) else { return false }
                if tooLarge { return true }  // cancelled already; cancelling again is harmless
                if count + data.count > maxBodyBytes {
                    transfers[id]?.tooLarge = true
                    transfers[id]?.body = Data()
                    return true
                }
                transfers[id]?.body.append(data)
                return false
            }
            if overLimit { dataTask.cancel() }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
            if transfer.tooLarge {
                transfer.completion(.failure(BodyTooLarge()))
            } else if let error {
                transfer.completion(.failure(error))
            } else if let response = transfer.response ?? task.response as? HTTPURLResponse {
                transfer.completion(.success((transfer.body, response)))
            } else {
                transfer.completion(.failure(URLError(.badServerResponse)))
            }
        }
    }
}
