import Foundation
import XCTest

/// Numbers from outside (params, `_meta`, ids, flags) and URI-looking `--db` values, through the
/// real binary: each gets its documented error, and the server keeps serving.
final class HostileNumberTests: XCTestCase {
    /// The one request that used to kill the server (protocol.md, "The range of every number").
    func test_hugeMetaDeadline_onEveryShopMethod_isClampedNotATrap() throws {
        let server = try ServerProcess()
        let methods: [(String, [String: Any])] = [
            ("catalog.get", ["sku": "SKU-0001"]), ("catalog.list", ["limit": 1]), ("catalog.search", ["query": "guide"]),
            ("inventory.check", ["skus": ["SKU-0001"]]), ("cart.get", ["cartId": "h"]), ("cart.add", ["cartId": "h", "sku": "SKU-0001", "quantity": 1]),
            ("cart.remove", ["cartId": "h", "sku": "SKU-0001"]), ("cart.clear", ["cartId": "h"]), ("orders.list", [:]),
            ("orders.get", ["orderId": "ord_missing"]),
        ]
        var expected = 0
        for (index, (method, params)) in methods.enumerated() {
            for (variant, huge) in ["1e19", "9223372036854775807", "1e308"].enumerated() {
                let body = String(jsonText(params).dropLast()) + (params.isEmpty ? "" : ",") + #""_meta":{"deadlineMs":\#(huge)}}"#
                let id = index * 10 + variant
                server.sendLine(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(body)}"#)
                server.sendLine(#"{"jsonrpc":"2.0","method":"\#(method)","params":\#(body)}"#)
                server.sendLine(#"[{"jsonrpc":"2.0","id":"b\#(id)","method":"\#(method)","params":\#(body)}]"#)
                expected += 2
            }
        }
        server.sendLine(rpc("last", "ping"))
        server.closeInput()
        let output = server.remainingOutput(timeout: 60)
        let lines = output.split(separator: "\n")
        XCTAssertEqual(lines.count, expected + 1, output)
        for line in lines {
            XCTAssertFalse(line.contains("-32603") || line.contains("-32602"), String(line))
        }
        XCTAssertEqual(server.waitForExit(), 0)
        XCTAssertFalse(server.stderrOutput.contains("Fatal error"), server.stderrOutput)
    }

    /// Ids at the ends of the range, in each spelling, as requests and as batch elements: the
    /// integers -2^63+1 and 2^63-1 come back exactly; -2^63 and whatever reads as ±2^63 are
    /// -32600 with id null (protocol.md, section 2).
    func test_idsAtTheEndsOfTheRange_overRealPipes_matchTheContract() throws {
        let server = try ServerProcess()
        let accepted = ["-9223372036854775807", "9223372036854775807"]
        let refused = ["-9223372036854775808", "-9.223372036854775808e18", "-9223372036854775809",
                       "9223372036854775808", "9.223372036854775807e18"]
        for id in accepted + refused {
            server.sendLine(#"{"jsonrpc":"2.0","id":\#(id),"method":"ping"}"#)
        }
        server.sendLine("[" + (accepted + refused).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"ping"}"# }.joined(separator: ",") + "]")
        server.closeInput()
        let lines = server.remainingOutput(timeout: 60).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, accepted.count + refused.count + 1, lines.joined(separator: "\n"))
        let singles = lines.filter { $0.hasPrefix("{") }
        for id in accepted {
            XCTAssertTrue(singles.contains(#"{"jsonrpc":"2.0","id":\#(id),"result":{}}"#), "\(id) echoed exactly: \(singles)")
        }
        let refusals = singles.filter { $0.contains(#""code":-32600"#) && $0.contains(#""id":null"#) && $0.contains("strictly between") }
        XCTAssertEqual(refusals.count, refused.count, singles.joined(separator: "\n"))
        // The batch answers in request order: the two accepted ids, then one refusal per other.
        let batch = try XCTUnwrap(lines.first { $0.hasPrefix("[") })
        let replies = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(batch.utf8)) as? [[String: Any]])
        XCTAssertEqual(replies.count, accepted.count + refused.count)
        for (index, reply) in replies.enumerated() {
            if index < accepted.count {
                XCTAssertNotNil(reply["result"], "\(reply)")
                XCTAssertTrue(batch.contains(#""id":\#(accepted[index]),"result""#), batch)
            } else {
                XCTAssertEqual((reply["error"] as? [String: Any])?["code"] as? Int, -32600, "\(reply)")
                XCTAssertTrue(reply["id"] is NSNull, "\(reply)")
            }
        }
        XCTAssertEqual(server.waitForExit(), 0)
    }

    func test_outOfRangeNumbersInParamsAndIds_getTheirDocumentedErrors() throws {
        let server = try ServerProcess()
        server.sendLine(#"{"jsonrpc":"2.0","id":1,"method":"cart.add","params":{"cartId":"c","sku":"SKU-0001","quantity":1e30}}"#)
        server.sendLine(#"{"jsonrpc":"2.0","id":2,"method":"catalog.list","params":{"limit":18446744073709551616}}"#)
        server.sendLine(#"{"jsonrpc":"2.0","id":3,"method":"catalog.get","params":{"sku":"SKU-0001","_meta":{"deadlineMs":-1e19}}}"#)
        server.sendLine(#"{"jsonrpc":"2.0","id":18446744073709551615,"method":"ping"}"#)
        // Replies stream in completion order; the id one (answered on arrival) has id null.
        let replies = (0..<4).compactMap { _ in server.readJSON() as? [String: Any] }
        func reply(_ id: Int) -> [String: Any]? { replies.first { $0["id"] as? Int == id } }
        XCTAssertEqual(reply(1)?.errorData?["field"] as? String, "quantity")
        XCTAssertEqual(reply(2)?.errorData?["field"] as? String, "limit")
        XCTAssertEqual(reply(3)?.errorData?["field"] as? String, "_meta.deadlineMs")
        let idReply = replies.first { $0["id"] is NSNull }
        XCTAssertEqual(idReply?.errorCode, -32600, "\(replies)")
        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0)
    }

    func test_numericFlagsOutOfRange_exitTwoWithAMessage() throws {
        let cases = [
            ["--deadline", "catalog.get=1e30"], ["--deadline", "catalog.get=9223372036854775808"],
            ["--max-inflight", "99999999999999999999"], ["--max-inflight", "0"], ["--progress-interval-ms", "1e3"],
            ["--progress-interval-ms", "-5"], ["--shutdown-grace-ms", "1099511627777"], ["--max-message-bytes", " 5"],
            ["--simulate-latency", "catalog.get=NaN"],
        ]
        for arguments in cases {
            let server = try ServerProcess(["--db", ":memory:"] + arguments)
            XCTAssertEqual(server.waitForExit(), 2, "\(arguments)")
            XCTAssertTrue(server.stderrOutput.contains("\(arguments[0]) needs an integer from"), "\(arguments): \(server.stderrOutput)")
        }
    }

    func test_uriDatabaseValue_isRefusedWithExitTwo_andCreatesNothing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shop-rpc-uri-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let previous = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(directory.path), "cannot enter \(directory.path)")
        defer { XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(previous), "cannot return to \(previous)") }
        // postgres:// and postgresql:// open a PostgreSQL store (PostgreSQLStartupTests).
        for value in ["mysql://user@host/shop", "sqlite://localhost/shop?host=/tmp", "file:///tmp/x.sqlite"] {
            let server = try ServerProcess(["--db", value])
            XCTAssertEqual(server.waitForExit(), 2, value)
            XCTAssertTrue(server.stderrOutput.contains("stores are not supported"), server.stderrOutput)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }
}
