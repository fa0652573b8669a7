import Dispatch
import XCTest
@testable import RPCServer

/// Exactly one reply per id: a request whose id is in use is answered with id null, whatever its
/// method (built-ins included), as a single message or inside a batch.
final class EngineDuplicateIdTests: XCTestCase {
    private func submit(_ engine: RPCEngine, _ collector: ReplyCollector, _ text: String) {
        engine.submit(Array(text.utf8), callbackQueue: collector.queue) { collector.append($0) }
    }

    private func isDuplicateReply(_ reply: JSONValue, id: JSONValue) -> Bool {
        reply["id"] == .null && reply["error"]?["code"] == -32600 && reply["error"]?["data"]?["type"] == "DuplicateId"
            && reply["error"]?["data"]?["id"] == id
    }

    func test_everyKindOfRequest_reusingAnIdInFlight_getsDuplicateIdWithIdNull_andTheCallStillRepliesOnce() {
        let engine = RPCEngine(registry: testRegistry(log: HandlerLog()))
        let collector = ReplyCollector()
        submit(engine, collector, #"{"jsonrpc":"2.0","id":7,"method":"wait","params":{"ms":400}}"#)
        let reusers = [
            #"{"jsonrpc":"2.0","id":7,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"rpc.discover"}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"$/cancelRequest","params":{"id":99}}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"notifications/cancelled","params":{"requestId":99}}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"no.such.method"}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"echo","params":{}}"#,
            #"{"jsonrpc":"2.0","id":7.0,"method":"ping"}"#,
            #"[{"jsonrpc":"2.0","id":7,"method":"ping"}]"#,
        ]
        for text in reusers { submit(engine, collector, text) }
        let replies = collector.wait(for: reusers.count + 1)
        let duplicates = replies.dropLast()
        for reply in duplicates.prefix(7) { XCTAssertTrue(isDuplicateReply(reply, id: 7), "\(reply)") }
        XCTAssertTrue(isDuplicateReply(duplicates.last?.arrayValue?.first ?? .null, id: 7), "\(duplicates.last ?? .null)")
        XCTAssertEqual(replies.last?["id"], 7)
        XCTAssertEqual(replies.last?["result"], [:])  // the cancel request with id 7 did not run
        eventually { engine.inflightCount == 0 }
        collector.queue.sync {}
        XCTAssertEqual(collector.all.filter { $0["id"] == 7 }.count, 1)
    }

    func test_batch_repeatingAnId_answersTheRepeatInItsSlot() {
        let engine = RPCEngine(registry: testRegistry(log: HandlerLog()))
        let collector = ReplyCollector()
        submit(engine, collector, #"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":1.0,"method":"echo","params":{}}]"#)
        let batch = collector.wait(for: 1)[0].arrayValue ?? []
        XCTAssertEqual(batch.count, 3)
        XCTAssertEqual(batch.first?["id"], 1)
        XCTAssertEqual(batch.dropFirst().first?["id"], 2)
        XCTAssertTrue(isDuplicateReply(batch.last ?? .null, id: 1), "\(batch)")
    }

    func test_batchIds_stayInUseUntilTheBatchReplyIsSent() {
        let engine = RPCEngine(registry: testRegistry(log: HandlerLog()))
        let collector = ReplyCollector()
        // The ping with id 2 is answered at once inside the batch, but its reply leaves with the
        // batch, after the slow element: until then id 2 is in use.
        submit(engine, collector, #"[{"jsonrpc":"2.0","id":1,"method":"wait","params":{"ms":300}},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#)
        submit(engine, collector, #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
        let replies = collector.wait(for: 2)
        XCTAssertTrue(isDuplicateReply(replies[0], id: 2), "\(replies[0])")
        XCTAssertEqual(replies[1].arrayValue?.map { $0["id"] }, [1, 2])
        // Once the batch is answered, its ids are free again.
        submit(engine, collector, #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
        XCTAssertEqual(collector.wait(for: 3)[2], .object(["jsonrpc": "2.0", "id": 2, "result": [:]]))
    }

    /// A single request for a registered method has its id checked as its call registers: an id
    /// an open batch holds, or a call in flight, is a duplicate, and that answer comes before any
    /// error of the request's own `_meta`.
    func test_methodCall_reusingABatchsIdOrACallsId_isADuplicate_beforeItsParamsAreChecked() {
        let engine = RPCEngine(registry: testRegistry(log: HandlerLog()))
        let collector = ReplyCollector()
        submit(engine, collector, #"[{"jsonrpc":"2.0","id":1,"method":"wait","params":{"ms":300}},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#)
        submit(engine, collector, #"{"jsonrpc":"2.0","id":2,"method":"echo","params":{}}"#)
        submit(engine, collector, #"{"jsonrpc":"2.0","id":2,"method":"echo","params":{"_meta":{"deadlineMs":-1}}}"#)
        submit(engine, collector, #"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"_meta":{"deadlineMs":-1}}}"#)
        let replies = collector.wait(for: 4)
        XCTAssertTrue(isDuplicateReply(replies[0], id: 2), "\(replies[0])")
        XCTAssertTrue(isDuplicateReply(replies[1], id: 2), "\(replies[1])")
        XCTAssertTrue(isDuplicateReply(replies[2], id: 1), "\(replies[2])")
        XCTAssertEqual(replies[3].arrayValue?.map { $0["id"] }, [1, 2])
        // Free again: the params error is now the answer.
        submit(engine, collector, #"{"jsonrpc":"2.0","id":2,"method":"echo","params":{"_meta":{"deadlineMs":-1}}}"#)
        XCTAssertEqual(collector.wait(for: 5)[4]["error"]?["data"]?["field"], "_meta.deadlineMs")
    }

    func test_idsThatAreTheSameNumber_areDuplicates_andCancelFindsTheCallByValue() {
        let log = HandlerLog()
        let engine = RPCEngine(registry: testRegistry(log: log))
        let collector = ReplyCollector()
        submit(engine, collector, #"{"jsonrpc":"2.0","id":0,"method":"wait","params":{"ms":60000}}"#)
        submit(engine, collector, #"{"jsonrpc":"2.0","id":-0.0,"method":"ping"}"#)
        XCTAssertTrue(isDuplicateReply(collector.wait(for: 1)[0], id: 0), "\(collector.all)")
        eventually { log.started == 1 }  // cancel the running work, not a call whose handler never started
        submit(engine, collector, #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":0.0}}"#)
        let cancelled = collector.wait(for: 2)[1]
        XCTAssertEqual(cancelled["id"], 0)
        XCTAssertEqual(cancelled["error"]?["code"], -32800)
        eventually { log.cancelled == 1 }
    }
}
