import XCTest
@testable import RPCServer

final class CodableTests: XCTestCase {
    struct Line: Codable, Equatable { var sku: String; var quantity: Int }
    struct Params: Codable, Equatable { var cartId: String; var lines: [Line]; var note: String?; var limit: Int? }

    /// The error decoding `json` as `Params` gives, or nil if it decodes.
    private func error(_ json: String) -> RPCError? {
        do {
            _ = try ParamsDecoding.decode(Params.self, from: try JSONParser.parse(Array(json.utf8)))
            return nil
        } catch { return error as? RPCError }
    }

    func test_decoder_decodesNestedTypes_fromParsedJSON() throws {
        let value = try JSONParser.parse(Array(#"{"cartId":"c","lines":[{"sku":"A","quantity":2.0}],"extra":true}"#.utf8))
        XCTAssertEqual(try JSONValueDecoder().decode(Params.self, from: value),
                       Params(cartId: "c", lines: [Line(sku: "A", quantity: 2)], note: nil, limit: nil))
    }

    func test_decodingErrors_becomeInvalidParams_namingTheField() {
        XCTAssertEqual(error(#"{"lines":[]}"#)?.data?["field"], "cartId")
        XCTAssertEqual(error(#"{"cartId":1,"lines":[]}"#)?.data?["field"], "cartId")
        XCTAssertEqual(error(#"{"cartId":"c","lines":[{"sku":"A","quantity":2.5}]}"#)?.data?["field"], "lines[0].quantity")
        XCTAssertEqual(error(#"{"cartId":"c","lines":[],"limit":1e300}"#)?.data?["field"], "limit")
        XCTAssertEqual(error(#"[1,2]"#)?.code, .invalidParams)
    }

    func test_encoder_keepsDeclarationOrder_andOmitsNilOptionals() throws {
        let value = try JSONValueEncoder().encode(Params(cartId: "c", lines: [Line(sku: "A", quantity: 1)], note: nil, limit: 3))
        XCTAssertEqual(String(decoding: JSONWriter.encode(value), as: UTF8.self),
                       #"{"cartId":"c","lines":[{"sku":"A","quantity":1}],"limit":3}"#)
    }

    func test_decoder_lastDuplicateMemberWins_andAllKeysListsEachOnce() throws {
        struct Keys: Decodable {
            var keys: [String]
            var sku: String
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyKey.self)
                keys = container.allKeys.map(\.stringValue)
                sku = try container.decode(String.self, forKey: AnyKey("sku"))
            }
        }
        let value = try JSONParser.parse(Array(#"{"sku":"A","n":1,"sku":"B"}"#.utf8))
        let decoded = try JSONValueDecoder().decode(Keys.self, from: value)
        XCTAssertEqual(decoded.sku, "B")
        XCTAssertEqual(decoded.keys, ["sku", "n"])
    }

    func test_decoder_scalarMemberErrors_nameTheirPath() {
        XCTAssertEqual(error(#"{"cartId":"c","lines":[],"note":5}"#)?.data?["field"], "note")
        XCTAssertEqual(error(#"{"cartId":"c","lines":[{"sku":true,"quantity":1}]}"#)?.data?["field"], "lines[0].sku")
        XCTAssertEqual(error(#"{"cartId":"c","lines":[{"quantity":1}]}"#)?.data?["field"], "lines[0].sku")
        XCTAssertNil(error(#"{"cartId":"c","lines":[],"note":null,"limit":null}"#))
    }

    func test_encoder_nestedContainers_filledAfterCreation_andRepeatedKeysReplace() throws {
        struct Custom: Encodable {
            func encode(to encoder: any Encoder) throws {
                var outer = encoder.container(keyedBy: AnyKey.self)
                var nested = outer.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("n"))
                var list = outer.nestedUnkeyedContainer(forKey: AnyKey("l"))
                try outer.encode(1, forKey: AnyKey("a"))
                try nested.encode("x", forKey: AnyKey("k"))
                try list.encode(Line(sku: "A", quantity: 2))
                try list.encode(3)
                try outer.encode(2, forKey: AnyKey("a"))
            }
        }
        let value = try JSONValueEncoder().encode(Custom())
        XCTAssertEqual(String(decoding: JSONWriter.encode(value), as: UTF8.self),
                       #"{"n":{"k":"x"},"l":[{"sku":"A","quantity":2},3],"a":2}"#)
    }

    func test_jsonValue_roundTripsThroughFoundationCoders() throws {
        let value: JSONValue = ["a": [1, 2.5, "x", nil, true], "b": ["c": "d"]]
        let data = try JSONEncoder().encode(value)
        XCTAssertEqual(try JSONDecoder().decode(JSONValue.self, from: data), value)
    }
}

/// A coding key for any member name.
private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
