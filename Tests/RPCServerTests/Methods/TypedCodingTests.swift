import RPCServer
import XCTest

/// The engine's typed params and results: a `JSONValueDecodable` params type is read directly when
/// it accepts the params and decoded with `Decodable` when it declines (so errors still name the
/// field); a `JSONValueConvertible` result is written from its `jsonValue`.
final class TypedCodingTests: XCTestCase {
    private struct Probe: Decodable, Sendable, JSONValueDecodable {
        var name: String
        /// Whether the direct reading produced these params (never set by `Decodable`).
        var readDirectly = false
        enum CodingKeys: String, CodingKey { case name }

        init?(jsonValue: JSONValue) {
            guard case .string(let name)? = jsonValue["name"], name != "decline" else { return nil }
            self.name = name
            readDirectly = true
        }
    }

    private struct Answer: Encodable, Sendable, JSONValueConvertible {
        var name: String
        var readDirectly: Bool
        /// Differs from the `Encodable` form on purpose, to show which one the engine wrote.
        var jsonValue: JSONValue { ["name": .string(name), "readDirectly": .bool(readDirectly), "via": "jsonValue"] }
    }

    private func replies(_ requests: [[UInt8]]) -> [JSONValue] {
        let spec = MethodSpec.callback("probe", params: Probe.self) { params, _, done in
            done(.success(Answer(name: params.name, readDirectly: params.readDirectly)))
        }
        let engine = RPCEngine(registry: MethodRegistry([spec]))
        let collector = ReplyCollector()
        for bytes in requests { engine.submit(bytes, callbackQueue: collector.queue) { collector.append($0) } }
        return collector.wait(for: requests.count).sorted { id(of: $0) < id(of: $1) }
    }

    private func id(of reply: JSONValue) -> Int64 {
        guard case .int(let id)? = reply["id"] else { return .max }
        return id
    }

    func test_directReading_isUsedWhenItAccepts_andDecodableWhenItDeclines_orForErrors() {
        let answers = replies([
            request(1, "probe", ["name": "a"]),
            request(2, "probe", ["name": "decline"]),
            request(3, "probe", ["name": 5]),
            request(4, "probe", [:]),
        ])
        XCTAssertEqual(answers.count, 4)
        XCTAssertEqual(answers[0]["result"], ["name": "a", "readDirectly": true, "via": "jsonValue"])
        XCTAssertEqual(answers[1]["result"], ["name": "decline", "readDirectly": false, "via": "jsonValue"])
        XCTAssertEqual(answers[2]["error"]?["code"], .int(-32602))
        XCTAssertEqual(answers[2]["error"]?["message"], "Invalid params: 'name': expected a string, found number")
        XCTAssertEqual(answers[2]["error"]?["data"]?["field"], "name")
        XCTAssertEqual(answers[3]["error"]?["message"], "Invalid params: missing member 'name'")
    }
}
