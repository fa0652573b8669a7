import Foundation
import XCTest

/// `examples/hello-rpc`, a server built on RPCServer alone, spawned over real pipes: it serves
/// newline-delimited JSON-RPC, LSP `Content-Length` framing and MCP with its own name, its own
/// methods and their deadlines, and ends the process itself when the session ends.
final class HelloRPCExampleTests: XCTestCase {
    private func startHello(_ arguments: [String] = []) throws -> ServerProcess {
        try ServerProcess(arguments, executable: ServerProcess.builtBinary("hello-rpc"))
    }

    // MARK: - JSON-RPC over NDJSON

    func test_ndjson_greet_answersWithTheGreeting() throws {
        let server = try startHello()
        server.sendLine(rpc(1, "hello.greet", ["name": "Ada"]))
        let reply = server.readJSON() as? [String: Any]
        XCTAssertEqual(reply?["id"] as? Int, 1)
        XCTAssertEqual(reply?.result?["greeting"] as? String, "Hello, Ada!")
        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0)
    }

    func test_ndjson_slow_passesItsDeadline_andGetsTheTypedTimeoutWithItsOwnMessage() throws {
        let server = try startHello()
        server.sendLine(rpc(2, "hello.slow"))
        let reply = server.readJSON() as? [String: Any]
        XCTAssertEqual(reply?["id"] as? Int, 2)
        XCTAssertEqual(reply?.errorCode, -32001)
        XCTAssertEqual(reply?.errorType, "DeadlineExceeded")
        XCTAssertEqual(reply?.errorMessage, "hello.slow gave up after 200 ms")
        XCTAssertEqual(reply?.errorData?["deadlineMs"] as? Int, 200)
        XCTAssertEqual(reply?.errorData?["method"] as? String, "hello.slow")
        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0)
    }

    func test_ndjson_stats_countTheExamplesCalls_andShowItsOwnSection() throws {
        let server = try startHello()
        server.sendLine(rpc(1, "hello.greet", ["name": "Ada"]))
        server.sendLine(rpc(2, "hello.greet", ["name": "Grace"]))
        server.sendLine(rpc(3, "hello.greet", [:]))
        _ = server.readReplies(3)
        server.sendLine(rpc(4, "rpc.stats"))
        let result = (server.readJSON() as? [String: Any])?.result
        let greet = (result?["methods"] as? [String: Any])?["hello.greet"] as? [String: Any]
        XCTAssertEqual(greet?["calls"] as? Int, 3)
        XCTAssertEqual(greet?["ok"] as? Int, 2)
        XCTAssertEqual(greet?["errors"] as? [String: Int], ["-32602": 1])
        XCTAssertEqual(((result?["methods"] as? [String: Any])?["hello.slow"] as? [String: Any])?["calls"] as? Int, 0)
        XCTAssertEqual(result?["sections"] as? NSDictionary, ["hello": ["namesGreeted": 2]] as NSDictionary)
        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0)
    }

    func test_ndjson_greetWithoutName_isInvalidParamsNamingTheField() throws {
        let server = try startHello()
        server.sendLine(rpc(3, "hello.greet", [:]))
        let reply = server.readJSON() as? [String: Any]
        XCTAssertEqual(reply?.errorCode, -32602)
        XCTAssertEqual(reply?.errorData?["field"] as? String, "name")
        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0)
    }

    func test_ndjson_discover_listsBothMethods_underTheCallersTitle() throws {
        let server = try startHello()
        server.sendLine(rpc(4, "rpc.discover"))
        let result = (server.readJSON() as? [String: Any])?.result
        XCTAssertEqual((result?["info"] as? [String: Any])?["title"] as? String, "Hello RPC")
        let names = (result?["methods"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
        XCTAssertTrue(names.contains("hello.greet") && names.contains("hello.slow"), "\(names)")
        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0)
    }

    // MARK: - LSP framing

    func test_lspFraming_greet_isAnsweredInAContentLengthFrame() throws {
        let server = try startHello()
        let body = rpc(5, "hello.greet", ["name": "Grace"])
        server.send("Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        let frame = try XCTUnwrap(server.readFrame(), "no LSP frame (stderr: \(server.stderrOutput))")
        let reply = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(frame.utf8)) as? [String: Any])
        XCTAssertEqual(reply["id"] as? Int, 5)
        XCTAssertEqual(reply.result?["greeting"] as? String, "Hello, Grace!")
        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0)
    }

    // MARK: - MCP

    func test_mcp_initialize_listTools_andCallBoth_withStructuredContentAndATypedTimeout() throws {
        let server = try startHello()
        server.sendLine(rpc(1, "initialize", ["protocolVersion": "2025-06-18", "capabilities": [String: Any](),
                                              "clientInfo": ["name": "test", "version": "1"]]))
        let initialize = (server.readJSON() as? [String: Any])?.result
        XCTAssertEqual(initialize?["protocolVersion"] as? String, "2025-06-18")
        let serverInfo = initialize?["serverInfo"] as? [String: Any]
        XCTAssertEqual(serverInfo?["name"] as? String, "hello-rpc")
        XCTAssertEqual(serverInfo?["title"] as? String, "Hello RPC")
        XCTAssertEqual(serverInfo?["version"] as? String, "1.0.0")
        XCTAssertNotNil((initialize?["capabilities"] as? [String: Any])?["tools"])
        XCTAssertEqual(initialize?["instructions"] as? String, "Greet people with hello_greet.")
        server.sendLine(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)

        server.sendLine(rpc(2, "tools/list"))
        let tools = ((server.readJSON() as? [String: Any])?.result?["tools"] as? [[String: Any]]) ?? []
        XCTAssertEqual(tools.compactMap { $0["name"] as? String }, ["hello_greet", "hello_slow"])
        let greetTool = tools.first
        XCTAssertEqual((greetTool?["inputSchema"] as? [String: Any])?["required"] as? [String], ["name"])
        XCTAssertEqual((greetTool?["annotations"] as? [String: Any])?["readOnlyHint"] as? Bool, true)
        XCTAssertEqual((tools.last?["_meta"] as? [String: Any])?["deadlineMs"] as? Int, 200)

        server.sendLine(rpc(3, "tools/call", ["name": "hello_greet", "arguments": ["name": "Ada"]]))
        let greeted = (server.readJSON() as? [String: Any])?.result
        XCTAssertEqual(greeted?["isError"] as? Bool, false)
        XCTAssertEqual((greeted?["structuredContent"] as? [String: Any])?["greeting"] as? String, "Hello, Ada!")
        let text = ((greeted?["content"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
        XCTAssertEqual((try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["greeting"] as? String,
                       "Hello, Ada!", text)

        server.sendLine(rpc(4, "tools/call", ["name": "hello_slow", "arguments": [String: Any]()]))
        let timedOut = server.readJSON() as? [String: Any]
        XCTAssertNil(timedOut?["error"], "a deadline is a tool result, not a JSON-RPC error")
        XCTAssertEqual(timedOut?.result?["isError"] as? Bool, true)
        XCTAssertEqual(((timedOut?.result?["content"] as? [[String: Any]])?.first?["text"] as? String), "hello.slow gave up after 200 ms")
        let error = (timedOut?.result?["structuredContent"] as? [String: Any])?["error"] as? [String: Any]
        XCTAssertEqual(error?["code"] as? Int, -32001)
        XCTAssertEqual((error?["data"] as? [String: Any])?["type"] as? String, "DeadlineExceeded")

        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0)
    }

    // MARK: - The library leaves the process to the program

    func test_logLines_carryTheCallersName_neverShopRpc() throws {
        let server = try startHello(["--log-level", "info"])
        server.sendLine(rpc(1, "hello.greet", ["name": "Ada"]))
        XCTAssertNotNil(server.readJSON())
        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0)
        let log = server.stderrOutput
        XCTAssertTrue(log.contains("hello-rpc [info] hello-rpc 1.0.0 serving on stdin/stdout"), log)
        XCTAssertFalse(log.contains("shop-rpc"), log)
    }

    func test_unopenableTraceFile_isAStartupError_theProgramExitsTwo() throws {
        let server = try startHello(["--trace", "/nonexistent-directory/trace.jsonl"])
        XCTAssertEqual(server.waitForExit(), 2)
        XCTAssertTrue(server.stderrOutput.contains("hello-rpc: cannot open trace file /nonexistent-directory/trace.jsonl"),
                      server.stderrOutput)
        XCTAssertEqual(server.remainingOutput(), "")
    }
}
