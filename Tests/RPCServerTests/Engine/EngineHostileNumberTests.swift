import Dispatch
import XCTest
@testable import RPCServer

/// Numbers a client controls never trap the engine, whatever form the message takes.
final class EngineHostileNumberTests: XCTestCase {
    private func submit(_ engine: RPCEngine, _ collector: ReplyCollector, _ text: String) {
        engine.submit(Array(text.utf8), callbackQueue: collector.queue) { collector.append($0) }
    }

    func test_hugeMetaDeadline_asRequestNotificationAndBatchElement_runsWithTheMethodsDeadline() {
        let engine = RPCEngine(registry: testRegistry(log: HandlerLog()))
        let collector = ReplyCollector()
        for (index, huge) in ["1e19", "9223372036854775807", "1e308", "9223372036854775296"].enumerated() {
            let params = #"{"x":1,"_meta":{"deadlineMs":\#(huge)}}"#
            submit(engine, collector, #"{"jsonrpc":"2.0","method":"echo","params":\#(params)}"#)
            submit(engine, collector, #"[{"jsonrpc":"2.0","method":"echo","params":\#(params)},{"jsonrpc":"2.0","id":"b\#(index)","method":"echo","params":\#(params)}]"#)
            submit(engine, collector, #"{"jsonrpc":"2.0","id":"r\#(index)","method":"echo","params":\#(params)}"#)
        }
        let replies = collector.wait(for: 8)
        for reply in replies {
            let single = reply.arrayValue?.first ?? reply
            XCTAssertEqual(single["result"], ["x": 1], "\(reply)")  // ran, with _meta removed
        }
    }

    func test_handlerThatSeesItsDeadlineFirst_andThrowsCancellationError_getsTheDeadlineError() {
        // The handler watches context.deadline itself and gives up the moment it passes, while the
        // timer queue, which would fire the deadline, is held busy: the handler's CancellationError
        // arrives first and must be answered as the deadline it stands for, not -32603.
        let registry = MethodRegistry([
            .callback("watcher", params: NoParams.self, deadlineMs: 30, deadlineMessage: "too slow") {
                (_: NoParams, context: CallContext, done: @escaping @Sendable (Result<EmptyResult, any Error>) -> Void) in
                DispatchQueue.global().asyncAfter(deadline: context.deadline) { done(.failure(CancellationError())) }
            },
        ])
        let engine = RPCEngine(registry: registry)
        let release = DispatchSemaphore(value: 0)
        engine.timerQueue.async { release.wait() }
        let collector = ReplyCollector()
        submit(engine, collector, #"{"jsonrpc":"2.0","id":1,"method":"watcher"}"#)
        let reply = collector.wait(for: 1)[0]
        release.signal()
        XCTAssertEqual(reply["error"]?["code"], -32001, "\(reply)")
        XCTAssertEqual(reply["error"]?["message"], "too slow")
        XCTAssertEqual(reply["error"]?["data"]?["type"], "DeadlineExceeded")
    }
}
