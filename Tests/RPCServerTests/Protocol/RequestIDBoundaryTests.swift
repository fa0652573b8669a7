import XCTest
@testable import RPCServer

/// Numeric ids at the ends of the range, in every spelling, wherever an id appears: a request, a
/// batch element, a cancel target (protocol.md, section 2: strictly between -2^63 and 2^63, as read).
final class RequestIDBoundaryTests: XCTestCase {
    /// Each spelling, and whether it is an id: the integer spelling is exact; the others are read as
    /// IEEE doubles, which near ±2^63 round to ±2^63.
    static let spellings: [(text: String, accepted: Bool)] = [
        ("-9223372036854775808", false),    // -2^63, integer spelling
        ("-9.223372036854775808e18", false), // -2^63, exponent spelling
        ("-9223372036854775808.0", false),   // -2^63, fraction spelling
        ("-9223372036854775809", false),     // -2^63 - 1: read as a double, rounds to -2^63
        ("-9223372036854775807", true),      // -2^63 + 1: the smallest integer id
        ("-9.223372036854775807e18", false), // -2^63 + 1 by exponent: rounds to -2^63
        ("9223372036854775807", true),       // 2^63 - 1: the largest integer id
        ("9.223372036854775807e18", false),  // 2^63 - 1 by exponent: rounds to 2^63
        ("9223372036854775808", false),      // 2^63
        ("9.223372036854775808e18", false),  // 2^63 by exponent
        ("-9.2233720368547748e18", true),    // the double just above -2^63 (-2^63 + 1024)
        ("9.2233720368547748e18", true),     // the double just below 2^63 (2^63 - 1024)
    ]

    private func decode(_ text: String) -> [IncomingElement] {
        switch MessageDecoder.decode(Array(text.utf8)) {
        case .single(let element): return [element]
        case .batch(let elements): return elements
        }
    }

    private func assertElement(_ element: IncomingElement, accepted: Bool, _ spelling: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        switch element {
        case .request(let request) where accepted:
            XCTAssertNotNil(request.id, spelling, file: file, line: line)
        case .invalid(let error, let id) where !accepted:
            XCTAssertEqual(error.code, .invalidRequest, spelling, file: file, line: line)
            XCTAssertNil(id, "answered with id null: \(spelling)", file: file, line: line)
            XCTAssertTrue(error.message.contains("strictly between -2^63 and 2^63"), error.message, file: file, line: line)
        default:
            XCTFail("\(spelling): expected \(accepted ? "a request" : "-32600 with id null"), got \(element)", file: file, line: line)
        }
    }

    func test_request_atEachBoundary_inEverySpelling() {
        for (text, accepted) in Self.spellings {
            let elements = decode(#"{"jsonrpc":"2.0","method":"m","id":\#(text)}"#)
            XCTAssertEqual(elements.count, 1)
            elements.first.map { assertElement($0, accepted: accepted, text) }
        }
    }

    func test_batchElement_atEachBoundary_inEverySpelling_keepsItsPosition() {
        let batch = "[" + Self.spellings.map { #"{"jsonrpc":"2.0","method":"m","id":\#($0.text)}"# }.joined(separator: ",") + "]"
        let elements = decode(batch)
        XCTAssertEqual(elements.count, Self.spellings.count)
        for (element, spelling) in zip(elements, Self.spellings) {
            assertElement(element, accepted: spelling.accepted, spelling.text)
        }
    }

    func test_acceptedBoundaryIntegers_comeBackExactly() {
        for text in ["-9223372036854775807", "9223372036854775807"] {
            guard case .request(let request)? = decode(#"{"jsonrpc":"2.0","method":"m","id":\#(text)}"#).first else {
                return XCTFail(text)
            }
            XCTAssertEqual(request.id?.description, text)
        }
    }

    func test_idValue_minus2To63_isNotAnId_whateverItsJSONForm() {
        XCTAssertNil(RequestID(.int(.min)))
        XCTAssertNil(RequestID(.double(-0x1p63)))
        XCTAssertNil(RequestID(.double(0x1p63)))
        XCTAssertEqual(RequestID(.int(.min + 1)), .int(.min + 1))
        XCTAssertEqual(RequestID(.int(.max)), .int(.max))
    }

    // MARK: - Cancel targets

    private func submit(_ engine: RPCEngine, _ collector: ReplyCollector, _ text: String) {
        engine.submit(Array(text.utf8), callbackQueue: collector.queue) { collector.append($0) }
    }

    func test_cancelTargets_atTheEndsOfTheRange_cancelTheirCall_andMinus2To63CancelsNothing() {
        let log = HandlerLog()
        let engine = RPCEngine(registry: testRegistry(log: log, deadlineMs: 30_000), configuration: EngineConfiguration())
        let collector = ReplyCollector()
        // Two calls holding the boundary ids, one cancelled each way ($/cancelRequest and MCP's
        // notifications/cancelled), the second by the exponent spelling of the same value.
        submit(engine, collector, #"{"jsonrpc":"2.0","id":9223372036854775807,"method":"sleep","params":{"ms":60000}}"#)
        submit(engine, collector, #"{"jsonrpc":"2.0","id":-9223372036854775807,"method":"sleep","params":{"ms":60000}}"#)
        eventually { log.started == 2 }
        // Targets that are not ids cancel nothing and are not answered (they are notifications).
        for target in ["-9223372036854775808", "-9.223372036854775808e18", "9223372036854775808", "9.223372036854775807e18"] {
            submit(engine, collector, #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":\#(target)}}"#)
            submit(engine, collector, #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":\#(target)}}"#)
        }
        submit(engine, collector, #"{"jsonrpc":"2.0","id":"probe","method":"ping"}"#)
        XCTAssertEqual(collector.wait(for: 1)[0]["id"], "probe", "the cancels with out-of-range targets were not answered")
        XCTAssertEqual(log.cancelled, 0, "no call was cancelled by an out-of-range target")

        submit(engine, collector, #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":9223372036854775807}}"#)
        submit(engine, collector, #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":-9223372036854775807}}"#)
        let cancelled = Array(collector.wait(for: 3).dropFirst())
        XCTAssertEqual(cancelled.map { $0["error"]?["code"] }, [-32800, -32800])
        let ids = cancelled.map { String(decoding: JSONWriter.encode($0["id"] ?? .null), as: UTF8.self) }
        XCTAssertEqual(Set(ids), ["9223372036854775807", "-9223372036854775807"])
        eventually { log.cancelled == 2 }
    }
}
