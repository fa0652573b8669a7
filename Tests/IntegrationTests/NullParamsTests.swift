import Foundation
import XCTest

/// `"params": null` is an absent `params` (protocol.md section 2), over the real binary's pipes in
/// both framings: every reply to a message with null params is byte for byte the reply to the same
/// message without `params` (ids aside), and notifications with null params are never answered.
/// Other scalar params stay `-32600`.
final class NullParamsTests: XCTestCase {
    /// Every method the server answers: the built-ins, the MCP methods, an unknown method and each
    /// shop method (those with required params answer -32602 naming the first missing field).
    private static let methods = [
        "ping", "rpc.discover", "initialize", "tools/list", "tools/call", "$/cancelRequest", "no.such.method",
        "catalog.list", "catalog.count", "catalog.get", "catalog.product", "catalog.search", "inventory.check", "cart.get", "cart.add", "cart.remove",
        "cart.clear", "orders.place", "orders.get", "orders.list",
    ]

    func test_emacsJsonrpcPing_isAnswered() throws {
        for framing in FramedClient.Framing.allCases {
            let client = try FramedClient(framing)
            client.send(#"{"jsonrpc":"2.0","id":1,"method":"ping","params":null}"#)
            XCTAssertEqual(client.read(), #"{"jsonrpc":"2.0","id":1,"result":{}}"#, "\(framing)")
        }
    }

    func test_request_withNullParams_isAnsweredAsWithoutParams_forEveryMethod() throws {
        for framing in FramedClient.Framing.allCases {
            let client = try FramedClient(framing)
            for method in Self.methods {
                client.send(request(id: "absent-\(method)", method: method, params: nil))
                client.send(request(id: "null-\(method)", method: method, params: "null"))
            }
            let replies = client.readReplies(2 * Self.methods.count)
            for method in Self.methods {
                guard let absent = replies["absent-\(method)"], let null = replies["null-\(method)"] else {
                    XCTFail("\(framing) \(method): missing a reply (\(replies.keys.sorted()))")
                    continue
                }
                XCTAssertEqual(null.replacingOccurrences(of: #""id":"null-"#, with: #""id":"absent-"#), absent, "\(framing) \(method)")
            }
            XCTAssertEqual(replies["null-ping"], #"{"jsonrpc":"2.0","id":"null-ping","result":{}}"#, "\(framing)")
            XCTAssertNotNil(replies["null-catalog.list"]?.range(of: #""result":{"items":["#), "\(framing): a method without required params answers")
            let missingSKU = parse(replies["null-catalog.get"])
            XCTAssertEqual(missingSKU?.errorCode, -32602, "\(framing)")
            XCTAssertEqual(missingSKU?.errorData?["field"] as? String, "sku", "\(framing)")
            XCTAssertEqual(missingSKU?.errorMessage, "Invalid params: missing member 'sku'", "\(framing)")
            XCTAssertEqual(parse(replies["null-cart.add"])?.errorData?["field"] as? String, "cartId", "\(framing)")
            XCTAssertEqual(parse(replies["null-no.such.method"])?.errorCode, -32601, "\(framing)")
        }
    }

    func test_stats_withNullParams_answers() throws {
        for framing in FramedClient.Framing.allCases {
            let client = try FramedClient(framing)
            client.send(request(id: 1, method: "rpc.stats", params: "null"))
            let stats = parse(client.read())
            XCTAssertEqual(stats?["id"] as? Int, 1, "\(framing)")
            XCTAssertNotNil((stats?.result?["methods"] as? [String: Any])?["catalog.get"], "\(framing)")
        }
    }

    func test_notifications_withNullParams_areNeverAnswered() throws {
        for framing in FramedClient.Framing.allCases {
            let client = try FramedClient(framing)
            for method in Self.methods + ["rpc.stats", "notifications/cancelled", "notifications/initialized"] {
                client.send(#"{"jsonrpc":"2.0","method":"\#(method)","params":null}"#)
            }
            client.send(#"[{"jsonrpc":"2.0","method":"ping","params":null},{"jsonrpc":"2.0","method":"catalog.get","params":null}]"#)
            client.send(request(id: "after", method: "ping", params: "null"))
            XCTAssertEqual(client.read(), #"{"jsonrpc":"2.0","id":"after","result":{}}"#, "\(framing): nothing before it")
            client.server.closeInput()
            XCTAssertEqual(client.server.remainingOutput(), "", "\(framing): nothing after it")
            XCTAssertEqual(client.server.waitForExit(), 0, "\(framing)")
        }
    }

    func test_batchElements_withNullParams_areAnsweredAsWithoutParams() throws {
        for framing in FramedClient.Framing.allCases {
            let client = try FramedClient(framing)
            func batch(_ prefix: String, _ params: String?) -> String {
                "[" + [request(id: "\(prefix)-1", method: "ping", params: params),
                       request(id: "\(prefix)-2", method: "catalog.get", params: params),
                       params.map { #"{"jsonrpc":"2.0","method":"ping","params":\#($0)}"# } ?? #"{"jsonrpc":"2.0","method":"ping"}"#,
                       request(id: "\(prefix)-3", method: "catalog.list", params: params),
                       request(id: "\(prefix)-4", method: "rpc.discover", params: params)].joined(separator: ",") + "]"
            }
            client.send(batch("absent", nil))
            client.send(batch("null", "null"))
            // The two batch replies may arrive in either order.
            let replies = [client.read(), client.read()].compactMap { $0 }
            XCTAssertEqual(replies.count, 2, "\(framing)")
            guard let absent = replies.first(where: { $0.contains(#""id":"absent-1""#) }),
                  let null = replies.first(where: { $0.contains(#""id":"null-1""#) }) else {
                return XCTFail("\(framing): \(replies)")
            }
            XCTAssertEqual(null.replacingOccurrences(of: #""id":"null-"#, with: #""id":"absent-"#), absent, "\(framing)")
            let elements = (try? JSONSerialization.jsonObject(with: Data(null.utf8))) as? [[String: Any]]
            XCTAssertEqual(elements?.map { $0["id"] as? String }, ["null-1", "null-2", "null-3", "null-4"], "\(framing)")
            XCTAssertEqual(elements?[1].errorCode, -32602, "\(framing)")
            XCTAssertEqual(elements?[1].errorData?["field"] as? String, "sku", "\(framing)")
        }
    }

    func test_mcpSession_withNullParams() throws {
        for framing in FramedClient.Framing.allCases {
            let client = try FramedClient(framing)
            client.send(request(id: 0, method: "initialize",
                                params: #"{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}"#))
            XCTAssertNotNil(parse(client.read())?.result?["protocolVersion"] as? String, "\(framing)")
            client.send(#"{"jsonrpc":"2.0","method":"notifications/initialized","params":null}"#)
            for method in ["tools/list", "ping", "tools/call"] {
                client.send(request(id: "absent-\(method)", method: method, params: nil))
                client.send(request(id: "null-\(method)", method: method, params: "null"))
            }
            let replies = client.readReplies(6)
            for method in ["tools/list", "ping", "tools/call"] {
                guard let absent = replies["absent-\(method)"], let null = replies["null-\(method)"] else {
                    XCTFail("\(framing) \(method): missing a reply (\(replies.keys.sorted()))")
                    continue
                }
                XCTAssertEqual(null.replacingOccurrences(of: #""id":"null-"#, with: #""id":"absent-"#), absent, "\(framing) \(method)")
            }
            XCTAssertNotNil((parse(replies["null-tools/list"])?.result?["tools"] as? [Any])?.first, "\(framing)")
            XCTAssertEqual(replies["null-ping"], #"{"jsonrpc":"2.0","id":"null-ping","result":{}}"#, "\(framing)")
            XCTAssertEqual(parse(replies["null-tools/call"])?.errorCode, -32602, "\(framing)")
        }
    }

    func test_scalarParams_stayInvalidRequest() throws {
        for framing in FramedClient.Framing.allCases {
            let client = try FramedClient(framing)
            let scalars = [#""s""#, "1", "2.5", "true", "false"]
            for (index, params) in scalars.enumerated() {
                client.send(request(id: index, method: "ping", params: params))
            }
            let replies = client.readReplies(scalars.count)
            for (index, params) in scalars.enumerated() {
                let reply = parse(replies["\(index)"])
                XCTAssertEqual(reply?.errorCode, -32600, "\(framing) params \(params)")
                XCTAssertEqual(reply?.errorMessage, #"Invalid Request: "params" must be an object or an array"#, "\(framing) params \(params)")
            }
            client.send("[" + request(id: "b1", method: "ping", params: "null") + "," + request(id: "b2", method: "ping", params: "true") + "]")
            let batch = (client.read().flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) }) as? [[String: Any]]
            XCTAssertEqual(batch?.map { $0["id"] as? String }, ["b1", "b2"], "\(framing)")
            XCTAssertNotNil(batch?.first?.result, "\(framing)")
            XCTAssertEqual(batch?.last?.errorCode, -32600, "\(framing)")
        }
    }

    // MARK: - Helpers

    /// A request whose `params` member is the JSON text `params`, or absent when it is nil.
    private func request(id: Any, method: String, params: String?) -> String {
        #"{"jsonrpc":"2.0","id":\#(jsonText(id)),"method":\#(jsonText(method))"# + (params.map { #","params":\#($0)"# } ?? "") + "}"
    }

    private func parse(_ text: String?) -> [String: Any]? {
        text.flatMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }
}

/// The real server spoken to in one framing: NDJSON lines, or LSP `Content-Length` frames (the
/// server detects the framing from the first message and answers in it).
private struct FramedClient {
    enum Framing: CaseIterable { case ndjson, lsp }

    let server: ServerProcess
    let framing: Framing

    init(_ framing: Framing) throws {
        server = try ServerProcess()
        self.framing = framing
    }

    func send(_ body: String) {
        switch framing {
        case .ndjson: server.sendLine(body)
        case .lsp: server.send("Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        }
    }

    /// The next message's text; nil if none came within 20 s.
    func read() -> String? {
        switch framing {
        case .ndjson: return server.readLine()
        case .lsp: return server.readFrame()
        }
    }

    /// The next `count` replies to single requests, keyed by id (as a string), in whatever order
    /// they arrived.
    func readReplies(_ count: Int, file: StaticString = #filePath, line: UInt = #line) -> [String: String] {
        var replies: [String: String] = [:]
        for _ in 0..<count {
            guard let text = read() else {
                XCTFail("\(framing): no reply (stderr: \(server.stderrOutput))", file: file, line: line)
                break
            }
            let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
            let key = "\(object?["id"] ?? "nil")"
            XCTAssertNil(replies[key], "\(framing): id \(key) answered twice", file: file, line: line)
            replies[key] = text
        }
        return replies
    }
}
