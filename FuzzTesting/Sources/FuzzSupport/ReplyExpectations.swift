@testable import RPCServer  // the engine's internals (FrameDecoder, JSONParser, RPCEngine) are package-only

/// What the replies to a set of messages must look like, worked out from the messages alone by
/// reading protocol.md (not by calling `MessageDecoder`), and the check of actual replies against it.
///
/// Invariants checked: every body is valid JSON and valid JSON-RPC 2.0 (a progress notification, or
/// a response with `jsonrpc: "2.0"`, an `id`, exactly one of `result`/`error`, and an error with an
/// integer `code`, a string `message` and a string `data.type`, a pair protocol.md lists and that
/// a healthy in-memory store can give, `DocumentedErrors`); no `-32603` InternalError; exactly
/// one top-level reply per message that expects one (notifications and all-notification batches
/// none); a batch's reply is an array with one element per non-notification element, in request
/// order, each echoing that element's id or null; a request id (compared by numeric value) comes
/// back at least once and at most as often as it was sent, so a duplicate may be answered with id
/// null (DuplicateId) and id-null replies are otherwise unconstrained. A value type; one thread.
public struct ReplyExpectations {
    /// The id an element's reply must carry: its own (or null, for a duplicate), or null.
    public enum ExpectedID {
        case null
        case id(JSONValue)
    }

    private var singles: [ExpectedID] = []
    private var batches: [[ExpectedID]] = []
    private var sentIDs: [JSONValue] = []

    // MARK: - Expectations from the requests

    public init() {}

    public mutating func expect(repliesTo message: [UInt8]) {
        guard let value = try? JSONParser.parse(message) else { return singles.append(.null) }  // -32700
        guard case .array(let elements) = value else {
            if let expected = expectation(for: value) { singles.append(expected) }
            return
        }
        if elements.isEmpty { return singles.append(.null) }  // -32600 "empty batch", not an array
        var expected: [ExpectedID] = []
        for element in elements { if let id = expectation(for: element) { expected.append(id) } }
        if !expected.isEmpty { batches.append(expected) }
    }

    /// nil for a valid notification (never answered); otherwise the id its reply carries.
    private mutating func expectation(for element: JSONValue) -> ExpectedID? {
        guard case .object(let object) = element else { return .null }
        var id = ExpectedID.null
        if let idValue = object["id"] {
            switch idValue {
            // protocol.md section 2: a numeric id must be finite and strictly between -2^63 and 2^63
            // (-2^63 itself, which fits an Int64, included in what is refused).
            case .string: id = .id(idValue)
            case .int(let number) where number != .min: id = .id(idValue)
            case .double(let number) where number.isFinite && number.magnitude < 0x1p63: id = .id(idValue)
            default: return .null  // not a usable id: invalid request, id null
            }
        }
        if case .id(let value) = id { sentIDs.append(value) }
        // protocol.md section 2: `params` is absent, structured, or null (which counts as absent).
        let valid: Bool
        switch (object["jsonrpc"], object["method"], object["params"]) {
        case (.string("2.0")?, .string?, nil), (.string("2.0")?, .string?, .null?),
             (.string("2.0")?, .string?, .object?), (.string("2.0")?, .string?, .array?): valid = true
        default: valid = false
        }
        if valid, object["id"] == nil { return nil }
        return id
    }

    // MARK: - Checking the replies

    public func check(_ bodies: [[UInt8]]) {
        var singleReplies: [JSONValue] = []
        var batchReplies: [[JSONValue]] = []
        for body in bodies {
            let value: JSONValue
            do { value = try JSONParser.parse(body) } catch {
                fuzzCheck(false, "a reply is not valid JSON (\(error.detail)): \(text(body))")
                return
            }
            switch value {
            case .array(let elements):
                fuzzCheck(!elements.isEmpty, "an empty batch reply was sent")
                for element in elements { checkResponse(element) }
                batchReplies.append(elements)
            case .object(let object) where object["id"] == nil && object["method"] != nil:
                fuzzCheck(object["jsonrpc"] == .string("2.0") && object["method"] == .string("notifications/progress")
                          && object["params"]?["progressToken"] != nil, "unexpected notification \(text(body))")
            default:
                checkResponse(value)
                singleReplies.append(value)
            }
        }
        fuzzCheck(singleReplies.count == singles.count,
                  "\(singleReplies.count) single replies for \(singles.count) messages that expect one: \(bodies.map(text))")
        fuzzCheck(batchReplies.count == batches.count,
                  "\(batchReplies.count) batch replies for \(batches.count) batches that expect one: \(bodies.map(text))")
        checkBatchOrder(batchReplies)
        checkIDCounts(singleReplies + batchReplies.flatMap { $0 }, bodies: bodies)
    }

    /// One response object: JSON-RPC 2.0 shape, typed error, never InternalError.
    private func checkResponse(_ value: JSONValue) {
        let shown = text(JSONWriter.encode(value))
        guard case .object(let object) = value else { return fuzzCheck(false, "a reply is not an object: \(shown)") }
        fuzzCheck(object["jsonrpc"] == .string("2.0"), "reply without jsonrpc 2.0: \(shown)")
        fuzzCheck(object["id"] != nil, "reply without an id member: \(shown)")
        fuzzCheck((object["result"] == nil) != (object["error"] == nil), "reply needs exactly one of result/error: \(shown)")
        guard let error = object["error"] else { return }
        guard case .int(let code)? = error["code"] else { return fuzzCheck(false, "error code is not an integer: \(shown)") }
        fuzzCheck(error["message"]?.stringValue != nil, "error message is not a string: \(shown)")
        fuzzCheck(error["data"]?["type"]?.stringValue != nil, "error without a string data.type: \(shown)")
        fuzzCheck(code != -32603, "InternalError for a peer's input: \(shown)")
        if let type = error["data"]?["type"]?.stringValue {
            fuzzCheck(DocumentedErrors.allows(code: code, type: type), "an error protocol.md does not list (\(code) \(type)): \(shown)")
        }
    }

    /// The batch replies can be paired one to one with the batches sent so that each reply has the
    /// same length and, position by position, the element's id or null (a perfect bipartite
    /// matching, found with augmenting paths: replies arrive in any order and a reply of nulls can
    /// fit several batches).
    private func checkBatchOrder(_ replies: [[JSONValue]]) {
        let replyIDs = replies.map { $0.map { $0["id"] ?? .null } }
        let fits = replyIDs.map { ids in batches.indices.filter { matches(ids, batches[$0]) } }
        var batchOwner = [Int?](repeating: nil, count: batches.count)
        func assign(_ reply: Int, _ visited: inout [Bool]) -> Bool {
            for batch in fits[reply] where !visited[batch] {
                visited[batch] = true
                if batchOwner[batch] == nil || assign(batchOwner[batch]!, &visited) {
                    batchOwner[batch] = reply
                    return true
                }
            }
            return false
        }
        for reply in replies.indices {
            var visited = [Bool](repeating: false, count: batches.count)
            fuzzCheck(assign(reply, &visited), "batch reply with ids \(replyIDs[reply].map(show)) fits no batch left "
                      + "(batches sent: \(batches.map { $0.map(show) }); replies: \(replyIDs.map { $0.map(show) }))")
        }
    }

    private func matches(_ ids: [JSONValue], _ expected: [ExpectedID]) -> Bool {
        ids.count == expected.count && zip(ids, expected).allSatisfy { id, want in
            if case .id(let value) = want { return id == .null || jsonSemanticallyEqual(id, value) }
            return id == .null
        }
    }

    /// Every id sent comes back between once and as often as it was sent (counting ids that are the
    /// same id); every id that comes back is, exactly (strings byte for byte, numbers by value), one
    /// that was sent.
    private func checkIDCounts(_ responses: [JSONValue], bodies: [[UInt8]]) {
        var distinct: [JSONValue] = []
        for id in sentIDs where !distinct.contains(where: { sameID($0, id) }) { distinct.append(id) }
        let returned = responses.map { $0["id"] ?? .null }.filter { $0 != .null }
        for id in returned {
            fuzzCheck(sentIDs.contains { jsonSemanticallyEqual($0, id) }, "reply with id \(show(id)) that no request had")
        }
        for id in distinct {
            let sent = sentIDs.filter { sameID($0, id) }.count
            let back = returned.filter { sameID($0, id) }.count
            fuzzCheck(back >= 1 && back <= sent, "id \(show(id)) sent \(sent) times came back \(back) times: \(bodies.map(text))")
        }
    }

    /// protocol.md "When two ids are the same id": strings when their characters are equal (Swift
    /// `String ==`, canonical equivalence), numbers when their values are equal.
    private func sameID(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        if case .string(let a) = lhs, case .string(let b) = rhs { return a == b }
        return jsonSemanticallyEqual(lhs, rhs)
    }

    private func show(_ id: JSONValue) -> String { text(JSONWriter.encode(id)) }
    private func show(_ id: ExpectedID) -> String {
        if case .id(let value) = id { return show(value) }
        return "null"
    }
}

private func text(_ bytes: [UInt8]) -> String {
    String(decoding: bytes.prefix(400), as: UTF8.self)
}
