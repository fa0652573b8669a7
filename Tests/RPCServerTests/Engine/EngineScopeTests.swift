import Dispatch
import XCTest
@testable import RPCServer
import SharedSupport

/// Scopes (`MethodSpec.scoped`, `EngineConfiguration.allowedScopes`): a method outside the allowed
/// scopes is answered -32601 with `data.scope` and runs nothing, alone, in a batch, as a
/// notification, over LSP framing and as an MCP tool call; it is left out of `rpc.discover`,
/// `rpc.stats` and `tools/list`; the built-ins stay.
final class EngineScopeTests: XCTestCase {
    /// Counts handler runs per method: the proof that a refused call did no work.
    private final class WorkLog: Sendable {
        let runs = Locked<[String: Int]>([:])
        func ran(_ method: String) { runs.withLock { $0[method, default: 0] += 1 } }
        subscript(method: String) -> Int { runs.withLock { $0[method] ?? 0 } }
    }

    private let work = WorkLog()

    /// `notes.list` (read), `notes.add` (write), `notes.purge` (no scope); `allowed` as given.
    private func engine(allowing allowed: Set<String>?) -> RPCEngine {
        let work = work
        let registry = MethodRegistry([
            MethodSpec.async("notes.list", params: NoParams.self) { _, _ in work.ran("notes.list"); return EmptyResult() }
                .scoped("read").hinting(.readOnly),
            MethodSpec.async("notes.add", params: NoParams.self) { _, _ in work.ran("notes.add"); return EmptyResult() }.scoped("write"),
            MethodSpec.async("notes.purge", params: NoParams.self) { _, _ in work.ran("notes.purge"); return EmptyResult() },
        ])
        var configuration = EngineConfiguration()
        configuration.allowedScopes = allowed
        return RPCEngine(registry: registry, configuration: configuration)
    }

    private func submit(_ engine: RPCEngine, _ collector: ReplyCollector, _ text: String) {
        engine.submit(Array(text.utf8), callbackQueue: collector.queue) { collector.append($0) }
    }

    /// Waits until nothing is in flight and every reply was delivered (a refused call that had
    /// started would hold the drain until its handler ran).
    private func drain(_ engine: RPCEngine, _ collector: ReplyCollector) {
        let drained = expectation(description: "drained")
        engine.readerQueue.async { engine.notifyWhenDrained { collector.queue.async { drained.fulfill() } } }
        wait(for: [drained], timeout: 30)
    }

    private func reply(_ replies: [JSONValue], _ id: JSONValue) -> JSONValue? { replies.first { $0["id"] == id } }

    // MARK: - Refused calls

    func test_disallowedCall_isMethodNotFoundWithItsScope_andRunsNothing() {
        let engine = engine(allowing: ["read"])
        let collector = ReplyCollector()
        submit(engine, collector, #"{"jsonrpc":"2.0","id":1,"method":"notes.add","params":{}}"#)
        submit(engine, collector, #"{"jsonrpc":"2.0","id":2,"method":"notes.list"}"#)
        submit(engine, collector, #"{"jsonrpc":"2.0","method":"notes.add"}"#)  // a notification: no reply, no work
        submit(engine, collector, #"{"jsonrpc":"2.0","id":3,"method":"rpc.stats"}"#)
        let replies = collector.wait(for: 3)
        drain(engine, collector)
        let error = reply(replies, 1)?["error"]
        XCTAssertEqual(error?["code"], -32601)
        XCTAssertEqual(error?["data"], ["type": "MethodNotAllowed", "method": "notes.add", "scope": "write"])
        XCTAssertEqual(error?["message"], "Method not allowed: notes.add needs the 'write' scope, which this server does not allow")
        XCTAssertEqual(reply(replies, 2)?["result"], [:])
        XCTAssertEqual(work["notes.add"], 0)
        XCTAssertEqual(work["notes.list"], 1)
        XCTAssertEqual(reply(replies, 3)?["result"]?["methods"]?.objectValue?.members.map(\.key), ["notes.list"],
                       "rpc.stats reports the methods served, and a refused call is not a call")
        XCTAssertEqual(collector.all.count, 3, "the refused notification was not answered")
    }

    func test_methodWithoutAScope_isRefusedWhileScopesAreRestricted_withoutAScopeInItsError() {
        let engine = engine(allowing: ["read", "write"])
        let collector = ReplyCollector()
        submit(engine, collector, #"{"jsonrpc":"2.0","id":1,"method":"notes.purge"}"#)
        let error = collector.wait(for: 1)[0]["error"]
        drain(engine, collector)
        XCTAssertEqual(error?["code"], -32601)
        XCTAssertEqual(error?["data"], ["type": "MethodNotAllowed", "method": "notes.purge"])
        XCTAssertEqual(work["notes.purge"], 0)
    }

    func test_batch_refusedElementsAnsweredInTheirSlots_theOthersRun() {
        let engine = engine(allowing: ["read"])
        let collector = ReplyCollector()
        submit(engine, collector, """
            [{"jsonrpc":"2.0","id":"a","method":"notes.add"},{"jsonrpc":"2.0","id":"b","method":"notes.list"},\
            {"jsonrpc":"2.0","method":"notes.add"},{"jsonrpc":"2.0","id":"c","method":"notes.purge"},{"jsonrpc":"2.0","id":"d","method":"ping"}]
            """)
        let batch = collector.wait(for: 1)[0].arrayValue ?? []
        drain(engine, collector)
        XCTAssertEqual(batch.map { $0["id"] }, ["a", "b", "c", "d"])
        XCTAssertEqual(batch[0]["error"]?["data"]?["scope"], "write")
        XCTAssertEqual(batch[1]["result"], [:])
        XCTAssertEqual(batch[2]["error"]?["data"]?["type"], "MethodNotAllowed")
        XCTAssertEqual(batch[3]["result"], [:])
        XCTAssertEqual(work["notes.add"], 0)
        XCTAssertEqual(work["notes.purge"], 0)
        XCTAssertEqual(work["notes.list"], 1)
    }

    func test_lspFraming_refusedCallIsAnsweredInAFrame_andRunsNothing() throws {
        let engine = engine(allowing: ["read"])
        let output = ConnectionTests.MemoryOutput()
        let writer = OutputWriter(output: output) { XCTFail("output closed") }
        let connection = RPCConnection(engine: engine, writer: writer, framing: nil)
        let finished = expectation(description: "finished")
        let bodies = [#"{"jsonrpc":"2.0","id":1,"method":"notes.add"}"#, #"{"jsonrpc":"2.0","id":2,"method":"notes.list"}"#]
        let input = bodies.map { "Content-Length: \($0.utf8.count)\r\n\r\n\($0)" }.joined()
        engine.readerQueue.sync {
            connection.onFinished { finished.fulfill() }
            Array(input.utf8).withUnsafeBytes { connection.receiveOnReaderQueue($0) }
            connection.endOfInputOnReaderQueue()
        }
        wait(for: [finished], timeout: 30)
        let text = String(decoding: output.bytes.withLock { $0 }, as: UTF8.self)
        let frames = text.components(separatedBy: "Content-Length: ").dropFirst().map { frame -> JSONValue? in
            guard let body = frame.range(of: "\r\n\r\n").map({ String(frame[$0.upperBound...]) }) else { return nil }
            return try? JSONParser.parse(Array(body.utf8))
        }
        XCTAssertEqual(frames.count, 2, text)
        let refused = frames.compactMap { $0 }.first { $0["id"] == 1 }
        XCTAssertEqual(refused?["error"]?["data"]?["scope"], "write")
        XCTAssertEqual(work["notes.add"], 0)
        XCTAssertEqual(work["notes.list"], 1)
    }

    // MARK: - MCP

    func test_mcpToolCall_ofARefusedMethod_isAnErrorResultWithTheScope_andRunsNothing() {
        let engine = engine(allowing: ["read"])
        let collector = ReplyCollector()
        submit(engine, collector, #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}"#)
        submit(engine, collector, #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"notes_add","arguments":{}}}"#)
        submit(engine, collector, #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"notes_purge"}}"#)
        submit(engine, collector, #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"notes_list"}}"#)
        submit(engine, collector, #"[{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"notes_add"}}]"#)
        let replies = collector.wait(for: 5)
        drain(engine, collector)
        let refused = reply(replies, 1)?["result"]
        XCTAssertEqual(refused?["isError"], true)
        XCTAssertEqual(refused?["structuredContent"]?["error"]?["code"], -32601)
        XCTAssertEqual(refused?["structuredContent"]?["error"]?["data"]?["scope"], "write")
        XCTAssertEqual(refused?["content"], [["type": "text", "text": "Method not allowed: notes.add needs the 'write' scope, which this server does not allow"]])
        XCTAssertEqual(reply(replies, 2)?["result"]?["isError"], true)
        XCTAssertEqual(reply(replies, 3)?["result"]?["isError"], false)
        let inBatch = replies.first { $0.arrayValue != nil }?.arrayValue?.first
        XCTAssertEqual(inBatch?["result"]?["structuredContent"]?["error"]?["data"]?["scope"], "write")
        XCTAssertEqual(work["notes.add"], 0)
        XCTAssertEqual(work["notes.purge"], 0)
        XCTAssertEqual(work["notes.list"], 1)
    }

    // MARK: - Listings

    func test_toolsListAndDiscover_showOnlyWhatIsServed_withScopes_andTheBuiltInsStay() {
        let engine = engine(allowing: ["read"])
        let collector = ReplyCollector()
        submit(engine, collector, #"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#)
        submit(engine, collector, #"{"jsonrpc":"2.0","id":2,"method":"rpc.discover"}"#)
        let replies = collector.wait(for: 2)
        let tools = reply(replies, 1)?["result"]?["tools"]?.arrayValue ?? []
        XCTAssertEqual(tools.map { $0["name"] }, ["notes_list"])
        XCTAssertEqual(tools.first?["_meta"]?["scope"], "read")
        XCTAssertEqual(tools.first?["annotations"]?["readOnlyHint"], true)
        let methods = reply(replies, 2)?["result"]?["methods"]?.arrayValue ?? []
        XCTAssertEqual(methods.map { $0["name"] }, ["ping", "rpc.discover", "rpc.stats", "notes.list"])
        XCTAssertEqual(methods.last?["x-scope"], "read")
    }

    func test_noScopeAllowed_servesOnlyTheBuiltIns() {
        let engine = engine(allowing: [])
        let collector = ReplyCollector()
        for (id, method) in ["ping", "rpc.discover", "rpc.stats", "tools/list", "notes.list"].enumerated() {
            submit(engine, collector, #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)"}"#)
        }
        submit(engine, collector, #"{"jsonrpc":"2.0","id":9,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}"#)
        let replies = collector.wait(for: 6)
        for id in [0, 1, 2, 3, 9] { XCTAssertNotNil(reply(replies, .int(Int64(id)))?["result"], "\(id) answered") }
        XCTAssertEqual(reply(replies, 3)?["result"]?["tools"], [])
        XCTAssertEqual(reply(replies, 4)?["error"]?["data"]?["scope"], "read")
    }

    func test_noRestriction_servesEveryMethod_scopedOrNot() {
        let engine = engine(allowing: nil)
        let collector = ReplyCollector()
        for (id, method) in ["notes.list", "notes.add", "notes.purge"].enumerated() {
            submit(engine, collector, #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)"}"#)
        }
        submit(engine, collector, #"{"jsonrpc":"2.0","id":9,"method":"tools/list"}"#)
        let replies = collector.wait(for: 4)
        drain(engine, collector)
        for id in 0...2 { XCTAssertEqual(reply(replies, .int(Int64(id)))?["result"], [:]) }
        XCTAssertEqual(reply(replies, 9)?["result"]?["tools"]?.arrayValue?.count, 3)
        XCTAssertEqual([work["notes.list"], work["notes.add"], work["notes.purge"]], [1, 1, 1])
    }
}

/// An application's switch (`ServerOptions.ApplicationOption(flag:help:)`), such as `--read-only`.
final class ServerOptionsSwitchTests: XCTestCase {
    private let readOnly = ServerOptions.ApplicationOption(flag: "--read-only", help: "serve only what reads")
    private let database = ServerOptions.ApplicationOption(flag: "--db", valueName: "PATH", help: "the store")

    func test_switch_takesNoValue_andIsRecordedAsGiven() throws {
        let options = try ServerOptions.parse(["--read-only", "--db", "x"], applicationOptions: [readOnly, database])
        XCTAssertEqual(options.applicationValues, ["--read-only": "", "--db": "x"])
        XCTAssertNil(try ServerOptions.parse(["--db", "x"], applicationOptions: [readOnly, database]).applicationValues["--read-only"])
    }

    func test_switch_givenAValue_isAUsageError() {
        XCTAssertThrowsError(try ServerOptions.parse(["--read-only=yes"], applicationOptions: [readOnly])) { error in
            XCTAssertEqual((error as? ServerOptions.UsageError)?.description, "--read-only takes no value")
        }
    }

    func test_usage_listsASwitchWithoutAValueName() {
        let usage = ServerOptions.usage(program: "x", applicationOptions: [readOnly, database])
        XCTAssertTrue(usage.contains("  --read-only  "), usage)
        XCTAssertTrue(usage.contains("  --db PATH  "), usage)
    }
}
