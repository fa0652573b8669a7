import XCTest
@testable import RPCServer

/// `JSONOutput` writes what `JSONWriter` writes for the same value, and knows when a writer broke
/// the grammar; the engine sends a `JSONWritable` result's text as it is, answers a broken writer
/// with -32603, and gives MCP hosts the same text and its value.
final class JSONOutputTests: XCTestCase {
    private func written(_ write: (inout JSONOutput) -> Void) -> (text: String, complete: Bool) {
        var output = JSONOutput(capacity: 4)  // small, so the buffer grows while writing
        write(&output)
        return (String(decoding: output.bytes, as: UTF8.self), output.isComplete)
    }

    func test_everyKindOfToken_writesWhatJSONWriterWritesForTheSameValue() {
        let expected: JSONValue = [
            "text": "quote \" backslash \\ newline \n tab \t bell \u{7} é 🙂",
            "count": -42,
            "ratio": 0.25,
            "whole": 3.0,
            "yes": true,
            "no": false,
            "nothing": .null,
            "empty object": [:],
            "empty array": [],
            "nested": ["list": [1, "two", ["three": 3], [], [[]]]],
            "value": ["kept": ["as", "is"]],
            "present": "here",
        ]
        let output = written { json in
            json.beginObject()
            json.member("text", "quote \" backslash \\ newline \n tab \t bell \u{7} é 🙂")
            json.member("count", -42)
            json.key("ratio"); json.double(0.25)
            json.key("whole"); json.double(3.0)
            json.key("yes"); json.bool(true)
            json.key("no"); json.bool(false)
            json.key("nothing"); json.null()
            json.key("empty object"); json.beginObject(); json.endObject()
            json.key("empty array"); json.beginArray(); json.endArray()
            json.key("nested")
            json.beginObject()
            json.key("list")
            json.beginArray()
            json.int(1)
            json.string("two")
            json.beginObject(); json.member("three", 3); json.endObject()
            json.beginArray(); json.endArray()
            json.beginArray(); json.beginArray(); json.endArray(); json.endArray()
            json.endArray()
            json.endObject()
            json.key("value"); json.value(["kept": ["as", "is"]] as JSONValue)
            json.member("present", ifPresent: "here")
            json.member("absent", ifPresent: nil)
            json.endObject()
        }
        XCTAssertTrue(output.complete)
        XCTAssertEqual(output.text, String(decoding: JSONWriter.encode(expected), as: UTF8.self))
    }

    func test_aKeyIsEscapedLikeAnyString() {
        let output = written { json in
            json.beginObject()
            json.member("say \"hi\"\n", 1)
            json.endObject()
        }
        XCTAssertTrue(output.complete)
        XCTAssertEqual(output.text, #"{"say \"hi\"\n":1}"#)
    }

    func test_aTopLevelScalarIsComplete() {
        XCTAssertEqual(written { $0.string("alone") }.text, #""alone""#)
        XCTAssertTrue(written { $0.string("alone") }.complete)
        XCTAssertTrue(written { $0.null() }.complete)
    }

    func test_everyBreakOfTheGrammar_leavesTheOutputIncomplete() {
        let breaks: [(String, (inout JSONOutput) -> Void)] = [
            ("nothing written", { _ in }),
            ("key at the top level", { $0.key("a") }),
            ("key inside an array", { $0.beginArray(); $0.key("a"); $0.int(1); $0.endArray() }),
            ("two keys in a row", { $0.beginObject(); $0.key("a"); $0.key("b"); $0.int(1); $0.endObject() }),
            ("value in an object without a key", { $0.beginObject(); $0.int(1); $0.endObject() }),
            ("object closed after a key", { $0.beginObject(); $0.key("a"); $0.endObject() }),
            ("two top-level values", { $0.int(1); $0.int(2) }),
            ("object left open", { $0.beginObject(); $0.member("a", 1) }),
            ("array closed as an object", { $0.beginArray(); $0.endObject() }),
            ("object closed as an array", { $0.beginObject(); $0.endArray() }),
            ("closed with nothing open", { $0.int(1); $0.endArray() }),
            ("65 arrays deep", { json in
                for _ in 0..<65 { json.beginArray() }
                for _ in 0..<65 { json.endArray() }
            }),
        ]
        for (name, write) in breaks {
            XCTAssertFalse(written(write).complete, name)
        }
        let deepest = written { json in
            for _ in 0..<64 { json.beginArray() }
            for _ in 0..<64 { json.endArray() }
        }
        XCTAssertTrue(deepest.complete, "64 deep is allowed")
    }

    // MARK: - Through the engine

    private struct Card: Encodable, Sendable, JSONWritable {
        var title: String
        var tags: [Tag]
        /// Writes `title` under another key than `Encodable` would, to show which one the engine used.
        func write(to json: inout JSONOutput) {
            json.beginObject()
            json.member("writtenTitle", title)
            json.member("tags", array: tags)
            json.endObject()
        }
    }

    private struct Tag: Encodable, Sendable, JSONWritable {
        var name: String
        func write(to json: inout JSONOutput) { json.string(name) }
    }

    private struct Broken: Encodable, Sendable, JSONWritable {
        func write(to json: inout JSONOutput) {
            json.beginObject()
            json.member("unclosed", 1)
        }
    }

    private func engine() -> RPCEngine {
        RPCEngine(registry: MethodRegistry([
            .callback("card", params: NoParams.self) { _, _, done in
                done(.success(Card(title: "a \"card\"\n", tags: [Tag(name: "x"), Tag(name: "y")])))
            },
            .callback("broken", params: NoParams.self) { _, _, done in done(.success(Broken())) },
        ]))
    }

    func test_aWritableResult_isSentAsWritten_andABrokenWriterIsAnInternalError() {
        let engine = engine()
        let collector = ReplyCollector()
        for bytes in [request(1, "card"), request(2, "broken")] {
            engine.submit(bytes, callbackQueue: collector.queue) { collector.append($0) }
        }
        let replies = collector.wait(for: 2)
        let card = replies.first { $0["id"] == 1 }
        XCTAssertEqual(card?["result"], ["writtenTitle": "a \"card\"\n", "tags": ["x", "y"]])
        let broken = replies.first { $0["id"] == 2 }
        XCTAssertNil(broken?["result"])
        XCTAssertEqual(broken?["error"]?["code"], -32603)
        XCTAssertEqual(broken?["error"]?["data"]?["detail"], "Broken.write(to:) did not write exactly one JSON value")
    }

    func test_aWritableResult_asAnMCPToolResult_isTheWrittenTextAndItsValue() {
        let engine = engine()
        let collector = ReplyCollector()
        let messages = [
            #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"card","arguments":{}}}"#,
        ]
        for message in messages {
            engine.submit(Array(message.utf8), callbackQueue: collector.queue) { collector.append($0) }
        }
        let result = collector.wait(for: 2).first { $0["id"] == 1 }?["result"]
        XCTAssertEqual(result?["isError"], false)
        XCTAssertEqual(result?["structuredContent"], ["writtenTitle": "a \"card\"\n", "tags": ["x", "y"]])
        XCTAssertEqual(result?["content"]?.arrayValue?.first?["text"], #"{"writtenTitle":"a \"card\"\n","tags":["x","y"]}"#)
    }

    func test_aWritableValue_nestedInAnEncodableResult_isItsParsedText() throws {
        struct Wrapper: Encodable { var card: Card }
        let value = try JSONValueEncoder().encode(Wrapper(card: Card(title: "t", tags: [Tag(name: "z")])))
        XCTAssertEqual(value, ["card": ["writtenTitle": "t", "tags": ["z"]]])
        XCTAssertEqual(Broken().jsonValue, .null)
    }
}
