import Foundation
import XCTest

/// Integers a client chooses, at the ends of what an Int64 holds, in every scope and every way in
/// (request, notification, batch, MCP tool call), through the real binary: each gets its
/// documented error and the server keeps serving (issue #40).
final class HostileArithmeticTests: XCTestCase {
    /// Every spelling the JSON reader turns into -2^63 (protocol.md, "The range of every number").
    private static let minusTwoToThe63 = ["-9223372036854775808", "-9223372036854775809", "-9.223372036854775808e18"]

    func test_stockAdjust_deltaMinusTwoToThe63_isInvalidParams_overRealPipes() throws {
        let server = try ServerProcess(["--db", ":memory:", "--allow", "read,write,admin"])
        for (index, delta) in Self.minusTwoToThe63.enumerated() {
            let params = #"{"sku":"SKU-0003","delta":\#(delta),"reason":"other"}"#
            server.sendLine(#"{"jsonrpc":"2.0","method":"admin.stock.adjust","params":\#(params)}"#)
            server.sendLine(#"{"jsonrpc":"2.0","id":\#(index),"method":"admin.stock.adjust","params":\#(params)}"#)
            let reply = try XCTUnwrap(server.readJSON() as? [String: Any], "the server answers \(delta)")
            XCTAssertEqual(reply.errorCode, -32602, "\(delta): \(reply)")
            XCTAssertEqual(reply.errorData?["field"] as? String, "delta", "\(delta): \(reply)")
        }
        server.sendLine(rpc("after", "admin.stock.adjust", ["sku": "SKU-0003", "delta": -1, "reason": "other"]))
        XCTAssertNotNil((server.readJSON() as? [String: Any])?.result, "still serving, and the level was never touched")
        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0, server.stderrOutput)
        XCTAssertFalse(server.stderrOutput.contains("Fatal error"), server.stderrOutput)
    }

    func test_stockAdjustTool_deltaMinusTwoToThe63_isAToolError_overRealPipes() throws {
        let server = try ServerProcess(["--db", ":memory:", "--allow", "read,write,admin"])
        server.sendLine(rpc(0, "initialize", ["protocolVersion": "2025-06-18", "capabilities": [String: Any]()]))
        XCTAssertNotNil((server.readJSON() as? [String: Any])?.result)
        server.sendLine(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        for (index, delta) in Self.minusTwoToThe63.enumerated() {
            let arguments = #"{"sku":"SKU-0003","delta":\#(delta),"reason":"other"}"#
            server.sendLine(#"{"jsonrpc":"2.0","id":\#(index + 1),"method":"tools/call","params":{"name":"admin_stock_adjust","arguments":\#(arguments)}}"#)
            let result = try XCTUnwrap((server.readJSON() as? [String: Any])?.result, "the server answers \(delta)")
            XCTAssertEqual(result["isError"] as? Bool, true, "\(delta): \(result)")
            let error = (result["structuredContent"] as? [String: Any])?["error"] as? [String: Any]
            XCTAssertEqual(error?["code"] as? Int, -32602, "\(delta): \(result)")
        }
        server.sendLine(rpc("last", "ping"))
        XCTAssertNotNil((server.readJSON() as? [String: Any])?.result)
        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0, server.stderrOutput)
    }
}
