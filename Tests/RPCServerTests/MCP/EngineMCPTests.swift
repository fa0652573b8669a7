import Dispatch
import XCTest
@testable import RPCServer

/// The engine as an MCP server: a session becomes MCP with `initialize` + `protocolVersion`; every
/// method is a tool; tool outcomes are results; a cancelled MCP request gets no reply.
final class EngineMCPTests: XCTestCase {
    private func submit(_ engine: RPCEngine, _ collector: ReplyCollector, _ text: String) {
        engine.submit(Array(text.utf8), callbackQueue: collector.queue) { collector.append($0) }
    }

    private func mcpEngine() -> RPCEngine {
        RPCEngine(registry: testRegistry(log: HandlerLog(), deadlineMs: 200),
                  identity: ServerIdentity(name: "test-rpc", title: "Test RPC", version: "9.9", instructions: "be nice"))
    }

    private let initialize = #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}"#

    func test_initialize_echoesASupportedVersion_andAnswersTheLatestForAnUnknownOne() {
        let collector = ReplyCollector()
        submit(mcpEngine(), collector, initialize)
        submit(mcpEngine(), collector, #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2099-01-01"}}"#)
        let replies = collector.wait(for: 2)
        let first = replies.first { $0["id"] == 0 }?["result"]
        XCTAssertEqual(first?["protocolVersion"], "2025-06-18")
        XCTAssertEqual(first?["serverInfo"], ["name": "test-rpc", "version": "9.9", "title": "Test RPC"])
        XCTAssertEqual(first?["instructions"], "be nice")
        XCTAssertEqual(first?["capabilities"]?["tools"], ["listChanged": false])
        XCTAssertEqual(replies.first { $0["id"] == 1 }?["result"]?["protocolVersion"], .string(MCPVersion.latest))
    }

    func test_initializeWithoutProtocolVersion_isAnLSPShapedAnswer_andTheSessionStaysPlain() {
        let engine = mcpEngine()
        let collector = ReplyCollector()
        submit(engine, collector, #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":1,"capabilities":{}}}"#)
        XCTAssertEqual(collector.wait(for: 1)[0]["result"], ["capabilities": [:], "serverInfo": ["name": "test-rpc", "version": "9.9"]])
        // Still plain: notifications/cancelled answers the cancelled call with -32800.
        submit(engine, collector, #"{"jsonrpc":"2.0","id":2,"method":"wait","params":{"ms":60000}}"#)
        submit(engine, collector, #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}"#)
        XCTAssertEqual(collector.wait(for: 2)[1]["error"]?["code"], -32800)
    }

    func test_toolsList_namesEveryMethodWithUnderscores_andRejectsAnyCursor() {
        let collector = ReplyCollector()
        let engine = mcpEngine()
        submit(engine, collector, #"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#)
        submit(engine, collector, #"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"abc"}}"#)
        let replies = collector.wait(for: 2)
        let tools = replies.first { $0["id"] == 1 }?["result"]?["tools"]?.arrayValue ?? []
        XCTAssertEqual(tools.compactMap { $0["name"]?.stringValue }, ["echo", "wait", "limited", "sleep", "boom"])
        let wait = tools[1]
        XCTAssertEqual(wait["_meta"]?["deadlineMs"], 200)
        XCTAssertEqual(wait["inputSchema"]?["type"], "object")
        XCTAssertTrue(wait["description"]?.stringValue?.contains("Waiting took too long") ?? false)
        XCTAssertEqual(wait["annotations"]?["readOnlyHint"], false)
        XCTAssertEqual(replies.first { $0["id"] == 2 }?["error"]?["code"], -32602)
    }

    func test_toolsCall_successErrorAndDeadline_areResults_unknownToolIsAProtocolError() {
        let engine = mcpEngine()
        let collector = ReplyCollector()
        submit(engine, collector, initialize)
        submit(engine, collector, #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"x":1}}}"#)
        submit(engine, collector, #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"boom"}}"#)
        submit(engine, collector, #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"wait","arguments":{"ms":60000}}}"#)
        submit(engine, collector, #"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"wait","arguments":{"ms":"soon"}}}"#)
        submit(engine, collector, #"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nope"}}"#)
        submit(engine, collector, #"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"echo","arguments":[1]}}"#)
        let replies = collector.wait(for: 7)
        func reply(_ id: JSONValue) -> JSONValue? { replies.first { $0["id"] == id } }
        XCTAssertEqual(reply(1)?["result"]?["structuredContent"], ["x": 1])
        XCTAssertEqual(reply(1)?["result"]?["content"], [["type": "text", "text": #"{"x":1}"#]])
        XCTAssertEqual(reply(1)?["result"]?["isError"], false)
        XCTAssertEqual(reply(2)?["result"]?["isError"], true)
        XCTAssertEqual(reply(2)?["result"]?["structuredContent"]?["error"]?["code"], -32603)
        XCTAssertEqual(reply(3)?["result"]?["isError"], true)
        XCTAssertEqual(reply(3)?["result"]?["content"], [["type": "text", "text": "Waiting took too long"]])
        XCTAssertEqual(reply(3)?["result"]?["structuredContent"]?["error"]?["code"], -32001)
        XCTAssertEqual(reply(4)?["result"]?["structuredContent"]?["error"]?["data"]?["field"], "ms")
        XCTAssertEqual(reply(5)?["error"]?["code"], -32602)
        XCTAssertEqual(reply(6)?["error"]?["data"]?["field"], "arguments")
    }

    func test_inAnMCPSession_aRequestCancelledByNotificationsCancelled_getsNoReply_butItsWorkStops() {
        let log = HandlerLog()
        let engine = RPCEngine(registry: testRegistry(log: log))
        let collector = ReplyCollector()
        submit(engine, collector, initialize)
        collector.wait(for: 1)
        submit(engine, collector, #"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"wait","arguments":{"ms":60000}}}"#)
        eventually { log.started == 1 }
        submit(engine, collector, #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"timeout"}}"#)
        eventually { log.cancelled == 1 }  // the work itself was stopped
        eventually { engine.inflightCount == 0 }
        submit(engine, collector, #"{"jsonrpc":"2.0","id":8,"method":"ping"}"#)
        let replies = collector.wait(for: 2)
        XCTAssertEqual(replies.map { $0["id"] }, [0, 8], "no reply to the cancelled request")
    }
}
