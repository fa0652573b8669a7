import Dispatch
import Foundation
import XCTest
@testable import RPCServer
import SharedSupport

/// Records what test handlers saw: how many ran, how many noticed cancellation, peak concurrency.
final class HandlerLog: Sendable {
    private struct State {
        var started = 0
        var finished = 0
        var cancelled = 0
        var running = 0
        var peakRunning = 0
    }

    private let state = Locked(State())

    func start() {
        state.withLock {
            $0.started += 1
            $0.running += 1
            $0.peakRunning = max($0.peakRunning, $0.running)
        }
    }

    func finish(cancelled: Bool) {
        state.withLock {
            $0.finished += 1
            $0.running -= 1
            if cancelled { $0.cancelled += 1 }
        }
    }

    var started: Int { state.withLock { $0.started } }
    var finished: Int { state.withLock { $0.finished } }
    var cancelled: Int { state.withLock { $0.cancelled } }
    var peakRunning: Int { state.withLock { $0.peakRunning } }
}

struct WaitParams: Codable, Sendable { var ms: Int }

/// Methods for exercising the engine: `echo` (async, returns its params), `wait` (completion
/// style: finishes after `ms` unless cancelled first, then reports the cancellation), `sleep`
/// (async `Task.sleep`), `boom` (throws), `limited` (concurrency limit 2).
func testRegistry(log: HandlerLog, deadlineMs: Int = 30_000) -> MethodRegistry {
    struct Boom: Error {}
    let wait: @Sendable (WaitParams, CallContext, @escaping @Sendable (Result<EmptyResult, any Error>) -> Void) -> Void = { params, context, completion in
        log.start()
        let done = OneShot()
        let timer = DispatchSource.makeTimerSource(queue: .global())
        nonisolated(unsafe) let unsafeTimer = timer
        context.cancellation.onCancel {
            guard done.claim() else { return }
            unsafeTimer.cancel()
            log.finish(cancelled: true)
            completion(.failure(CancellationError()))  // a late completion: must be dropped
        }
        timer.schedule(deadline: .now() + .milliseconds(params.ms))
        timer.setEventHandler {
            unsafeTimer.cancel()
            guard done.claim() else { return }
            log.finish(cancelled: false)
            completion(.success(EmptyResult()))
        }
        timer.resume()
    }
    return MethodRegistry([
        .async("echo", params: JSONValue.self) { params, _ in params },
        .callback("wait", params: WaitParams.self, deadlineMs: deadlineMs, deadlineMessage: "Waiting took too long", handler: wait),
        .callback("limited", params: WaitParams.self, concurrencyLimit: 2, handler: wait),
        .async("sleep", params: WaitParams.self) { params, _ in
            log.start()
            do {
                try await Task.sleep(for: .milliseconds(params.ms))
                log.finish(cancelled: false)
            } catch {
                log.finish(cancelled: true)
                throw error
            }
            return EmptyResult()
        },
        .async("boom", params: NoParams.self) { _, _ -> EmptyResult in throw Boom() },
    ])
}

/// Collects replies delivered on one serial queue, and lets a test wait for a number of them.
final class ReplyCollector: Sendable {
    let queue = DispatchQueue(label: "test.replies")
    private let replies = Locked<[JSONValue]>([])
    private let condition = NSCondition()

    var channel: ReplyChannel { ReplyChannel(queue: queue) { body in self.append(body) } }

    func append(_ body: [UInt8]) {
        let value = (try? JSONParser.parse(body)) ?? .string("unparseable: \(String(decoding: body, as: UTF8.self))")
        condition.lock()
        replies.withLock { $0.append(value) }
        condition.broadcast()
        condition.unlock()
    }

    var all: [JSONValue] { replies.withLock { $0 } }

    /// Waits (up to a generous bound) until at least `count` replies arrived; returns them.
    @discardableResult
    func wait(for count: Int, timeout: TimeInterval = 30, file: StaticString = #filePath, line: UInt = #line) -> [JSONValue] {
        let limit = Date().addingTimeInterval(timeout)
        condition.lock()
        while replies.withLock({ $0.count }) < count, condition.wait(until: limit) {}
        condition.unlock()
        let result = all
        XCTAssertGreaterThanOrEqual(result.count, count, "timed out waiting for replies", file: file, line: line)
        return result
    }
}

func request(_ id: Int, _ method: String, _ params: JSONValue? = nil) -> [UInt8] {
    var object: JSONObject = ["jsonrpc": "2.0", "id": .int(Int64(id)), "method": .string(method)]
    if let params { object.append("params", params) }
    return JSONWriter.encode(.object(object))
}

/// Waits until `condition` holds, polling; for states that have no event to wait on.
func eventually(timeout: TimeInterval = 30, file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) {
    let limit = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() > limit { return XCTFail("condition not met in \(timeout) s", file: file, line: line) }
        usleep(1000)
    }
}
