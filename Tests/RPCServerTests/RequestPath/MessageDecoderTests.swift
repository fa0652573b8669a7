import XCTest
@testable import RPCServer

/// The classification examples of the JSON-RPC 2.0 specification, section 7.
final class MessageDecoderTests: XCTestCase {
    private func decode(_ text: String) -> IncomingMessage { MessageDecoder.decode(Array(text.utf8)) }

    private func invalid(_ message: IncomingMessage) -> (RPCError, RequestID?)? {
        if case .single(.invalid(let error, let id)) = message { return (error, id) }
        return nil
    }

    func test_request_notification_andIds() {
        guard case .single(.request(let request)) = decode(#"{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}"#) else {
            return XCTFail("expected a request")
        }
        XCTAssertEqual(request.id, .int(1))
        XCTAssertEqual(request.params, [42, 23])
        guard case .single(.request(let notification)) = decode(#"{"jsonrpc":"2.0","method":"update","params":[1,2,3,4,5]}"#) else {
            return XCTFail("expected a notification")
        }
        XCTAssertTrue(notification.isNotification)
        guard case .single(.request(let nullID)) = decode(#"{"jsonrpc":"2.0","method":"m","id":null}"#) else { return XCTFail() }
        XCTAssertEqual(nullID.id, .null)
        XCTAssertFalse(nullID.isNotification)
    }

    func test_invalidJSON_isParseError_withNullId() {
        let result = invalid(decode(#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#))
        XCTAssertEqual(result?.0.code, .parseError)
        XCTAssertNil(result?.1)
    }

    func test_invalidRequestObjects_areInvalidRequest() {
        let methodNotString = invalid(decode(#"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#))
        XCTAssertEqual(methodNotString?.0.code, .invalidRequest)
        XCTAssertEqual(methodNotString?.1, .null)
        let wrongVersion = invalid(decode(#"{"jsonrpc":"1.0","method":"m","id":"x"}"#))
        XCTAssertEqual(wrongVersion?.0.code, .invalidRequest)
        XCTAssertEqual(wrongVersion?.1, .string("x"), "the id is recovered when it is valid")
        let objectID = invalid(decode(#"{"jsonrpc":"2.0","method":"m","id":{}}"#))
        XCTAssertEqual(objectID?.1, nil, "an unusable id is answered with null")
        XCTAssertEqual(invalid(decode("[]"))?.0.code, .invalidRequest)
        XCTAssertEqual(invalid(decode("42"))?.0.code, .invalidRequest)
        XCTAssertEqual(invalid(decode(#"{"jsonrpc":"2.0","method":"m","params":"s","id":3}"#))?.1, .int(3))
    }

    func test_nullParams_isAbsentParams_inRequestsNotificationsAndBatchElements() {
        guard case .single(.request(let request)) = decode(#"{"jsonrpc":"2.0","id":1,"method":"ping","params":null}"#) else {
            return XCTFail("a request with null params is a request")
        }
        XCTAssertEqual(request.id, .int(1))
        XCTAssertNil(request.params, "null params are absent params")
        guard case .single(.request(let notification)) = decode(#"{"jsonrpc":"2.0","method":"ping","params":null}"#) else {
            return XCTFail("a notification with null params is a notification")
        }
        XCTAssertTrue(notification.isNotification)
        XCTAssertNil(notification.params)
        guard case .batch(let elements) = decode(#"[{"jsonrpc":"2.0","id":"a","method":"m","params":null},{"params":null,"method":"n","jsonrpc":"2.0"}]"#),
              elements.count == 2, case .request(let first) = elements[0], case .request(let second) = elements[1] else {
            return XCTFail("a batch of two requests with null params")
        }
        XCTAssertEqual(first.id, .string("a"))
        XCTAssertNil(first.params)
        XCTAssertTrue(second.isNotification)
        XCTAssertNil(second.params)
        // Duplicate members: the last one wins, in both directions.
        guard case .single(.request(let lastNull)) = decode(#"{"jsonrpc":"2.0","id":2,"method":"m","params":{"a":1},"params":null}"#) else {
            return XCTFail()
        }
        XCTAssertNil(lastNull.params)
        guard case .single(.request(let lastObject)) = decode(#"{"jsonrpc":"2.0","id":3,"method":"m","params":null,"params":{"a":1}}"#) else {
            return XCTFail()
        }
        XCTAssertEqual(lastObject.params, ["a": 1])
    }

    func test_scalarParams_areInvalidRequest_withTheIdKept() {
        for params in [#""s""#, "1", "1.5", "true", "false"] {
            let result = invalid(decode(#"{"jsonrpc":"2.0","id":7,"method":"ping","params":\#(params)}"#))
            XCTAssertEqual(result?.0.code, .invalidRequest, "params \(params)")
            XCTAssertEqual(result?.0.message, #"Invalid Request: "params" must be an object or an array"#, "params \(params)")
            XCTAssertEqual(result?.1, .int(7), "params \(params)")
            let notification = invalid(decode(#"{"jsonrpc":"2.0","method":"ping","params":\#(params)}"#))
            XCTAssertEqual(notification?.0.code, .invalidRequest, "a notification with params \(params) is answered")
            XCTAssertEqual(notification?.1, .null)
        }
    }

    func test_batch_keepsElementsInOrder_andInvalidElementsInPlace() {
        guard case .batch(let elements) = decode(#"[{"jsonrpc":"2.0","method":"a","id":"1"},{"foo":"boo"},1,{"jsonrpc":"2.0","method":"b"}]"#) else {
            return XCTFail("expected a batch")
        }
        XCTAssertEqual(elements.count, 4)
        if case .request(let first) = elements[0] { XCTAssertEqual(first.method, "a") } else { XCTFail() }
        if case .invalid(let error, _) = elements[1] { XCTAssertEqual(error.code, .invalidRequest) } else { XCTFail() }
        if case .invalid(let error, _) = elements[2] { XCTAssertEqual(error.code, .invalidRequest) } else { XCTFail() }
        if case .request(let last) = elements[3] { XCTAssertTrue(last.isNotification) } else { XCTFail() }
    }

    func test_replyEncoder_echoesIdsExactly() {
        XCTAssertEqual(String(decoding: ReplyEncoder.result(id: .int(9_007_199_254_740_991), result: .object([:])), as: UTF8.self),
                       #"{"jsonrpc":"2.0","id":9007199254740991,"result":{}}"#)
        XCTAssertEqual(String(decoding: ReplyEncoder.result(id: .string("é\"x"), result: .null), as: UTF8.self),
                       #"{"jsonrpc":"2.0","id":"é\"x","result":null}"#)
        XCTAssertEqual(String(decoding: ReplyEncoder.error(id: nil, error: .invalidRequest("x")), as: UTF8.self),
                       #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: x","data":{"type":"InvalidRequest","detail":"x"}}}"#)
    }
}
