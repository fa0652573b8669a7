import Dispatch
import XCTest
@testable import RPCServer

final class EngineTests: XCTestCase {
    private func engine(_ log: HandlerLog, deadlineMs: Int = 30_000, configure: (inout EngineConfiguration) -> Void = { _ in }) -> RPCEngine {
        var configuration = EngineConfiguration()
        configure(&configuration)
        return RPCEngine(registry: testRegistry(log: log, deadlineMs: deadlineMs), configuration: configuration)
    }

    private func submit(_ engine: RPCEngine, _ collector: ReplyCollector, _ bytes: [UInt8]) {
        engine.submit(bytes, callbackQueue: collector.queue) { collector.append($0) }
    }

    // MARK: - Callback queue

    func test_submit_deliversRepliesOnTheInjectedCallbackQueue() {
        let key = DispatchSpecificKey<String>()
        let injected = DispatchQueue(label: "test.injected")
        injected.setSpecific(key: key, value: "injected")
        let engine = engine(HandlerLog())
        let done = expectation(description: "replies")
        done.expectedFulfillmentCount = 3
        for bytes in [request(1, "ping"), request(2, "echo", ["x": 1]), request(3, "nope")] {
            engine.submit(bytes, callbackQueue: injected) { _ in
                XCTAssertEqual(DispatchQueue.getSpecific(key: key), "injected")
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 10)
    }

    func test_submit_withoutAQueue_usesTheEnginesDefaultCallbackQueue() {
        let key = DispatchSpecificKey<Bool>()
        RPCEngine.defaultCallbackQueue.setSpecific(key: key, value: true)
        let done = expectation(description: "reply")
        engine(HandlerLog()).submit(request(1, "ping")) { _ in
            XCTAssertEqual(DispatchQueue.getSpecific(key: key), true)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
    }

    // MARK: - Deadlines and cancellation

    func test_pastDeadline_repliesOnceWithTypedError_andCancelsTheWork() {
        let log = HandlerLog()
        let engine = engine(log, deadlineMs: 50)
        let collector = ReplyCollector()
        submit(engine, collector, request(7, "wait", ["ms": 60_000]))
        let reply = collector.wait(for: 1)[0]
        XCTAssertEqual(reply["id"], 7)
        XCTAssertEqual(reply["error"]?["code"], -32001)
        XCTAssertEqual(reply["error"]?["message"], "Waiting took too long")
        XCTAssertEqual(reply["error"]?["data"]?["type"], "DeadlineExceeded")
        XCTAssertEqual(reply["error"]?["data"]?["method"], "wait")
        XCTAssertEqual(reply["error"]?["data"]?["deadlineMs"], 50)
        XCTAssertGreaterThanOrEqual(reply["error"]?["data"]?["elapsedMs"]?.doubleValue ?? 0, 50)
        eventually { log.cancelled == 1 }  // the work itself was stopped, not just the reply
        eventually { engine.inflightCount == 0 }
        collector.queue.sync {}
        XCTAssertEqual(collector.all.count, 1, "the handler's late completion must be dropped")
    }

    func test_metaDeadline_shortensButNeverLengthens() {
        let log = HandlerLog()
        let engine = engine(log, deadlineMs: 200)
        let collector = ReplyCollector()
        submit(engine, collector, request(1, "wait", ["ms": 60_000, "_meta": ["deadlineMs": 20]]))
        submit(engine, collector, request(2, "wait", ["ms": 60_000, "_meta": ["deadlineMs": 999_999]]))
        let replies = collector.wait(for: 2)
        XCTAssertEqual(replies.first { $0["id"] == 1 }?["error"]?["data"]?["deadlineMs"], 20)
        XCTAssertEqual(replies.first { $0["id"] == 2 }?["error"]?["data"]?["deadlineMs"], 200)
    }

    func test_metaIsStripped_beforeTheHandlerSeesParams() {
        let engine = engine(HandlerLog())
        let collector = ReplyCollector()
        submit(engine, collector, request(1, "echo", ["a": 1, "_meta": ["progressToken": "t"]]))
        XCTAssertEqual(collector.wait(for: 1)[0]["result"], ["a": 1])
    }

    func test_cancelRequest_answersCancelled_andCancelsAnAsyncTask() {
        let log = HandlerLog()
        let engine = engine(log)
        let collector = ReplyCollector()
        submit(engine, collector, request(1, "sleep", ["ms": 60_000]))
        eventually { log.started == 1 }
        submit(engine, collector, JSONWriter.encode(["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": 1]]))
        let reply = collector.wait(for: 1)[0]
        XCTAssertEqual(reply["error"]?["code"], -32800)
        XCTAssertEqual(reply["error"]?["data"]?["type"], "Cancelled")
        eventually { log.cancelled == 1 }
    }

    func test_mcpCancelledNotification_cancelsByRequestId() {
        let log = HandlerLog()
        let engine = engine(log)
        let collector = ReplyCollector()
        submit(engine, collector, Array(#"{"jsonrpc":"2.0","id":"abc","method":"wait","params":{"ms":60000}}"#.utf8))
        submit(engine, collector, Array(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"abc","reason":"x"}}"#.utf8))
        let reply = collector.wait(for: 1)[0]
        XCTAssertEqual(reply["id"], "abc")
        XCTAssertEqual(reply["error"]?["code"], -32800)
    }

    func test_cancelNeverOvertakesTheRequestItNames() {
        // Request and cancel submitted back to back: the cancel must find the call.
        let engine = engine(HandlerLog())
        let collector = ReplyCollector()
        for id in 0..<200 {
            submit(engine, collector, request(id, "wait", ["ms": 60_000]))
            submit(engine, collector, JSONWriter.encode(["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": .int(Int64(id))]]))
        }
        let replies = collector.wait(for: 200)
        XCTAssertTrue(replies.allSatisfy { $0["error"]?["code"] == -32800 })
    }

    /// 10 000 calls whose completion, deadline and client cancel race; every id answered exactly once.
    func test_raceOfCompletionDeadlineAndCancel_answersEveryIdExactlyOnce() {
        let log = HandlerLog()
        let engine = engine(log) { $0.maxInflight = 100_000 }
        let collector = ReplyCollector()
        let total = 10_000
        for id in 0..<total {
            let ms = id % 4
            submit(engine, collector, request(id, "wait", ["ms": .int(Int64(ms)), "_meta": ["deadlineMs": .int(Int64(1 + id % 3))]]))
            if id % 5 == 0 {
                submit(engine, collector, JSONWriter.encode(["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": .int(Int64(id))]]))
            }
        }
        collector.wait(for: total, timeout: 120)
        // Calls cancelled before their handler started never run it; every handler that started finished.
        eventually(timeout: 60) { engine.inflightCount == 0 && log.started == log.finished }
        collector.queue.sync {}
        let replies = collector.all
        XCTAssertEqual(replies.count, total)
        var seen = [Int: Int]()
        var kinds = [String: Int]()
        for reply in replies {
            guard case .int(let id)? = reply["id"] else { return XCTFail("bad reply \(reply)") }
            seen[Int(id), default: 0] += 1
            let kind = reply["result"] != nil ? "result" : (reply["error"]?["data"]?["type"]?.stringValue ?? "?")
            kinds[kind, default: 0] += 1
        }
        XCTAssertEqual(seen.count, total)
        XCTAssertTrue(seen.values.allSatisfy { $0 == 1 })
        XCTAssertEqual(Set(kinds.keys).subtracting(["result", "DeadlineExceeded", "Cancelled"]), [], "\(kinds)")
    }

    // MARK: - Streaming, batches, limits

    func test_slowCall_doesNotDelayAThousandFastOnes() {
        let engine = engine(HandlerLog())
        let collector = ReplyCollector()
        submit(engine, collector, request(0, "wait", ["ms": 60_000]))
        for id in 1...1000 { submit(engine, collector, request(id, "echo", ["n": .int(Int64(id))])) }
        let replies = collector.wait(for: 1000)
        XCTAssertFalse(replies.contains { $0["id"] == 0 }, "the slow call is still running")
        submit(engine, collector, JSONWriter.encode(["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": 0]]))
        XCTAssertEqual(collector.wait(for: 1001).last?["id"], 0)
    }

    func test_batch_runsConcurrently_andRepliesInRequestOrder() {
        let log = HandlerLog()
        let engine = engine(log)
        let collector = ReplyCollector()
        // Element 1 runs until cancelled, so element 2 starts while it runs, however slow the machine.
        let batch = #"[{"jsonrpc":"2.0","id":1,"method":"wait","params":{"ms":600000}},{"jsonrpc":"2.0","method":"echo","params":{}},{"jsonrpc":"2.0","id":2,"method":"wait","params":{"ms":1}},{"jsonrpc":"2.0","id":3,"method":"nope"},5,{"jsonrpc":"2.0","id":4,"method":"ping"}]"#
        submit(engine, collector, Array(batch.utf8))
        eventually { log.finished == 1 }  // element 2 is done; element 1 still waits
        submit(engine, collector, JSONWriter.encode(["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": 1]]))
        let reply = collector.wait(for: 1)[0]
        guard case .array(let elements) = reply else { return XCTFail("expected an array, got \(reply)") }
        XCTAssertEqual(elements.map { $0["id"] }, [1, 2, 3, .null, 4])
        XCTAssertEqual(elements[0]["error"]?["code"], -32800, "element 1 was cancelled")
        XCTAssertNotNil(elements[1]["result"])
        XCTAssertEqual(elements[2]["error"]?["code"], -32601)
        XCTAssertEqual(elements[3]["id"], .null)
        XCTAssertEqual(log.peakRunning, 2, "both waits ran at the same time")
    }

    func test_emptyBatch_andAllNotificationBatch() {
        let engine = engine(HandlerLog())
        let collector = ReplyCollector()
        submit(engine, collector, Array("[]".utf8))
        submit(engine, collector, Array(#"[{"jsonrpc":"2.0","method":"echo"},{"jsonrpc":"2.0","method":"nope"}]"#.utf8))
        submit(engine, collector, request(9, "ping"))
        let replies = collector.wait(for: 2)
        collector.queue.sync {}
        XCTAssertEqual(collector.all.count, 2, "an all-notification batch produces nothing")
        XCTAssertEqual(replies[0]["error"]?["code"], -32600)
        XCTAssertNil(replies[0].arrayValue, "[] is answered with one object, not an array")
        XCTAssertEqual(replies[1]["id"], 9)
    }

    func test_notifications_areNeverAnswered_evenForUnknownMethodsOrErrors() {
        let engine = engine(HandlerLog())
        let collector = ReplyCollector()
        submit(engine, collector, Array(#"{"jsonrpc":"2.0","method":"nope"}"#.utf8))
        submit(engine, collector, Array(#"{"jsonrpc":"2.0","method":"boom"}"#.utf8))
        submit(engine, collector, Array(#"{"jsonrpc":"2.0","method":"wait","params":{"ms":"bad"}}"#.utf8))
        submit(engine, collector, request(1, "wait", ["ms": 50]))
        XCTAssertEqual(collector.wait(for: 1)[0]["id"], 1)
        eventually { engine.inflightCount == 0 }
        collector.queue.sync {}
        XCTAssertEqual(collector.all.count, 1)
    }

    func test_duplicateIdInFlight_isRejected_andTheFirstCallIsUnaffected() {
        let engine = engine(HandlerLog())
        let collector = ReplyCollector()
        submit(engine, collector, request(1, "wait", ["ms": 200]))
        submit(engine, collector, request(1, "echo", [:]))
        let replies = collector.wait(for: 2)
        XCTAssertEqual(replies[0]["error"]?["data"]?["type"], "DuplicateId")
        XCTAssertEqual(replies[1]["result"], [:])
    }

    func test_errors_invalidParamsNameTheField_andThrownErrorsAreInternal() {
        let engine = engine(HandlerLog())
        let collector = ReplyCollector()
        submit(engine, collector, request(1, "wait", ["ms": "soon"]))
        XCTAssertEqual(collector.wait(for: 1)[0]["error"]?["data"]?["field"], "ms")
        submit(engine, collector, request(2, "boom"))
        XCTAssertEqual(collector.wait(for: 2)[1]["error"]?["code"], -32603)
        submit(engine, collector, request(3, "wait", ["ms": 1, "_meta": ["deadlineMs": -1]]))
        XCTAssertEqual(collector.wait(for: 3)[2]["error"]?["data"]?["field"], "_meta.deadlineMs")
    }

    func test_concurrencyLimit_isNeverExceeded() {
        let log = HandlerLog()
        let engine = engine(log)
        let collector = ReplyCollector()
        // Two calls that run until cancelled fill the limit, whatever the pace of the machine.
        for id in 0..<2 { submit(engine, collector, request(id, "limited", ["ms": 600_000])) }
        eventually { log.started == 2 }
        for id in 2..<12 { submit(engine, collector, request(id, "limited", ["ms": 20])) }
        engine.readerQueue.sync {}
        XCTAssertEqual(log.started, 2, "the others wait while both slots are taken")
        for id in 0..<2 {
            submit(engine, collector, JSONWriter.encode(["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": .int(Int64(id))]]))
        }
        collector.wait(for: 12)
        XCTAssertEqual(log.peakRunning, 2)
        XCTAssertEqual(log.finished, 12)
    }

    func test_progress_isSentWhileRunning_increasing_andNeverAfterTheReply() {
        let engine = engine(HandlerLog()) { $0.progressIntervalMs = 10 }
        let collector = ReplyCollector()
        // The call runs until cancelled, once three heartbeats are seen: none is left to chance.
        submit(engine, collector, request(1, "wait", ["ms": 600_000, "_meta": ["progressToken": "tok"]]))
        eventually { collector.all.count >= 3 }
        submit(engine, collector, JSONWriter.encode(["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": 1]]))
        eventually { collector.all.contains { $0["id"] == 1 } }
        usleep(50_000)  // a heartbeat firing now must not come after the reply
        collector.queue.sync {}
        let messages = collector.all
        let replyIndex = messages.firstIndex { $0["id"] == 1 }!
        XCTAssertEqual(replyIndex, messages.count - 1, "nothing after the reply")
        let progress = messages[..<replyIndex]
        XCTAssertGreaterThan(progress.count, 2)
        XCTAssertTrue(progress.allSatisfy { $0["method"] == "notifications/progress" && $0["params"]?["progressToken"] == "tok" })
        let values = progress.compactMap { $0["params"]?["progress"]?.doubleValue }
        XCTAssertEqual(values, values.sorted())
        XCTAssertEqual(Set(values).count, values.count, "strictly increasing")
    }

    func test_methodWithItsOwnExecutor_runsThere_alsoAfterSimulatedLatency() {
        let key = DispatchSpecificKey<String>()
        let lane = DispatchQueue(label: "test.lane")
        lane.setSpecific(key: key, value: "lane")
        let spec = MethodSpec.callback("where", params: NoParams.self) { (_: NoParams, _: CallContext, done: @escaping @Sendable (Result<JSONValue, any Error>) -> Void) in
            done(.success(.string(DispatchQueue.getSpecific(key: key) ?? "elsewhere")))
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

    func test_discover_describesEveryMethod_withDeadlines() {
        let engine = engine(HandlerLog(), deadlineMs: 5000)
        let collector = ReplyCollector()
        submit(engine, collector, request(1, "rpc.discover"))
        let document = collector.wait(for: 1)[0]["result"]
        XCTAssertEqual(document?["openrpc"], "1.3.2")
        let methods = document?["methods"]?.arrayValue ?? []
        XCTAssertEqual(Set(methods.compactMap { $0["name"]?.stringValue }), ["ping", "rpc.discover", "rpc.stats", "echo", "wait", "limited", "sleep", "boom"])
        XCTAssertEqual(methods.first { $0["name"] == "wait" }?["x-deadlineMs"], 5000)
    }
}
