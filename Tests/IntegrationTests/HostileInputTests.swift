import Foundation
import XCTest

/// Every hostile input gets a clear error (or is ignored where JSON-RPC says so), never a crash or
/// hang, and the very next call works.
final class HostileInputTests: XCTestCase {
    private func assertSurvives(_ input: [UInt8], expectCode: Int?, arguments: [String] = ["--db", ":memory:"],
                                file: StaticString = #filePath, line: UInt = #line) throws {
        let server = try ServerProcess(arguments)
        server.send(input + [0x0A])
        if let expectCode {
            let reply = server.readJSON(file: file, line: line) as? [String: Any]
            XCTAssertEqual(reply?.errorCode, expectCode, file: file, line: line)
        }
        server.sendLine(rpc("next", "ping"))
        let next = server.readJSON(file: file, line: line) as? [String: Any]
        XCTAssertEqual(next?["id"] as? String, "next", file: file, line: line)
        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0, file: file, line: line)
    }

    func test_deepNesting() throws {
        try assertSurvives(Array((String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)).utf8), expectCode: -32700)
        try assertSurvives(Array(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":" + String(repeating: "{\"a\":", count: 50_000)).utf8),
                           expectCode: -32700)
    }

    func test_invalidUTF8_loneSurrogates_andNULBytes() throws {
        try assertSurvives(Array(#"{"jsonrpc":"2.0","id":1,"method":"p"#.utf8) + [0xC3, 0x28] + Array(#"ng"}"#.utf8), expectCode: -32700)
        try assertSurvives(Array(#"{"jsonrpc":"2.0","id":1,"method":"\ud800"}"#.utf8), expectCode: -32700)
        try assertSurvives(Array(#"{"jsonrpc":"2.0","id":1,"method":""#.utf8) + [0, 0, 0] + Array(#""}"#.utf8), expectCode: -32700)
        try assertSurvives([0, 0, 0, 0], expectCode: -32700)
        try assertSurvives(Array(#"{"jsonrpc":"2.0","id":1,"method":"ping\u0000"}"#.utf8), expectCode: -32601)
    }

    func test_hugeNumbers() throws {
        try assertSurvives(Array(#"{"jsonrpc":"2.0","id":1e999999,"method":"ping"}"#.utf8), expectCode: -32600)
        try assertSurvives(Array((#"{"jsonrpc":"2.0","id":1,"method":"catalog.list","params":{"limit":"# + String(repeating: "9", count: 100_000) + "}}").utf8),
                           expectCode: -32602)
    }

    func test_hugeMethodName() throws {
        try assertSurvives(Array((#"{"jsonrpc":"2.0","id":1,"method":""# + String(repeating: "m", count: 100_000) + #""}"#).utf8), expectCode: -32601)
    }

    func test_messageOverTheSizeLimit_isSkipped() throws {
        let big = #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":""# + String(repeating: "x", count: 200_000) + #""}}"#
        try assertSurvives(Array(big.utf8), expectCode: -32600, arguments: ["--db", ":memory:", "--max-message-bytes", "65536"])
    }

    func test_truncatedLine_doesNotSwallowTheNextOne() throws {
        try assertSurvives(Array(#"{"jsonrpc":"2.0","id":1,"method":"pi"#.utf8), expectCode: -32700)
    }

    func test_wrongTypes() throws {
        try assertSurvives(Array(#"{"jsonrpc":"2.0","id":1,"method":"catalog.get","params":{"sku":42}}"#.utf8), expectCode: -32602)
        try assertSurvives(Array(#"{"jsonrpc":"2.0","id":1,"method":"catalog.get","params":[1,2]}"#.utf8), expectCode: -32602)
        try assertSurvives(Array(#"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#.utf8), expectCode: -32600)
        try assertSurvives(Array(#"{"jsonrpc":"2.0","id":1,"method":"catalog.get","params":{"sku":"SKU-0001","_meta":{"deadlineMs":"soon"}}}"#.utf8),
                           expectCode: -32602)
        try assertSurvives(Array(#"{"jsonrpc":"2.0","id":1,"method":"catalog.get","params":{"sku":"SKU-0001","_meta":[]}}"#.utf8), expectCode: -32602)
    }
}
