import Dispatch
import XCTest
@testable import RPCServer
import SharedSupport

/// `MethodSpec.synchronous`: the handler returns its result (or throws) on the thread that runs it,
/// and the call settles exactly once whatever else ends it first, as with the other styles.
final class EngineSynchronousHandlerTests: XCTestCase {
    private struct Code: Codable, Sendable { var code: Int }
    private struct Plain: Error {}

    private func submit(_ engine: RPCEngine, _ collector: ReplyCollector, _ bytes: [UInt8]) {
        engine.submit(bytes, callbackQueue: collector.queue) { collector.append($0) }
    }

    func test_result_isTheReply_andRunsOnTheMethodsExecutor_alsoAfterSimulatedLatency() {
        let key = DispatchSpecificKey<String>()
        let lane = DispatchQueue(label: "test.lane")
        lane.setSpecific(key: key, value: "lane")
        let spec = MethodSpec.synchronous("where", params: NoParams.self) { _, _ in
            DispatchQueue.getSpecific(key: key) ?? "elsewhere"
        }.startingOn { lane.async(execute: $0) }
        for latency in [0, 20] {
            var configuration = EngineConfiguration()
            configuration.simulatedLatencyMs = ["where": latency]
            let engine = RPCEngine(registry: MethodRegistry([spec]), configuration: configuration)
            let collector = ReplyCollector()
            submit(engine, collector, request(1, "where"))
            XCTAssertEqual(collector.wait(for: 1)[0]["result"], "lane", "latency \(latency) ms")
        }
    }

    func test_errors_thrownRPCErrorAsItself_otherErrorsInternal_badParamsNameTheField() {
        let engine = RPCEngine(registry: MethodRegistry([
            .synchronous("fail", params: Code.self) { params, _ -> EmptyResult in
                if params.code == 0 { throw Plain() }
                throw RPCError(code: RPCErrorCode(params.code), message: "custom")
            },
        ]))
        let collector = ReplyCollector()
        submit(engine, collector, request(1, "fail", ["code": 0]))
        XCTAssertEqual(collector.wait(for: 1)[0]["error"]?["code"], -32603)
        submit(engine, collector, request(2, "fail", ["code": 4242]))
        let custom = collector.wait(for: 2)[1]["error"]
        XCTAssertEqual(custom?["code"], 4242)
        XCTAssertEqual(custom?["message"], "custom")
        submit(engine, collector, request(3, "fail", ["code": "x"]))
        XCTAssertEqual(collector.wait(for: 3)[2]["error"]?["data"]?["field"], "code")
    }

    /// The deadline answers while the handler still blocks its thread, cancels its token (which
    /// ends the work), and the result the handler then returns is dropped: one reply.
    func test_pastDeadline_whileTheHandlerBlocks_repliesOnce_andCancelsIt() {
        let sawCancellation = Locked(false)
        let returned = DispatchSemaphore(value: 0)
        let engine = RPCEngine(registry: MethodRegistry([
            .synchronous("block", params: NoParams.self, deadlineMs: 50) { _, context in
                defer { returned.signal() }
                let gaveUp = DispatchTime.now() + .seconds(30)
                while !context.cancellation.isCancelled, DispatchTime.now() < gaveUp { usleep(1_000) }
                sawCancellation.withLock { $0 = context.cancellation.isCancelled }
                return "late"
            },
        ]))
        let collector = ReplyCollector()
        submit(engine, collector, request(1, "block"))
        let reply = collector.wait(for: 1)[0]
        XCTAssertEqual(reply["error"]?["data"]?["type"], "DeadlineExceeded")
        XCTAssertEqual(returned.wait(timeout: .now() + 30), .success)
        XCTAssertTrue(sawCancellation.withLock { $0 })
        collector.queue.sync {}
        usleep(20_000)
        collector.queue.sync {}
        XCTAssertEqual(collector.all.count, 1, "the late result is not sent")
    }
}
