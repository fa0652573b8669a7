import XCTest
@testable import RPCServer

final class CodableTests: XCTestCase {
    struct Line: Codable, Equatable { var sku: String; var quantity: Int }
    struct Params: Codable, Equatable { var cartId: String; var lines: [Line]; var note: String?; var limit: Int? }

    func test_decoder_decodesNestedTypes_fromParsedJSON() throws {
        let value = try JSONParser.parse(Array(#"{"cartId":"c","lines":[{"sku":"A","quantity":2.0}],"extra":true}"#.utf8))
        XCTAssertEqual(try JSONValueDecoder().decode(Params.self, from: value),
                       Params(cartId: "c", lines: [Line(sku: "A", quantity: 2)], note: nil, limit: nil))
    }

    func test_decodingErrors_becomeInvalidParams_namingTheField() {
        func error(_ json: String) -> RPCError? {
            do {
                _ = try ParamsDecoding.decode(Params.self, from: try JSONParser.parse(Array(json.utf8)))
                return nil
            } catch { return error as? RPCError }
        }
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

    func test_jsonValue_roundTripsThroughFoundationCoders() throws {
        let value: JSONValue = ["a": [1, 2.5, "x", nil, true], "b": ["c": "d"]]
        let data = try JSONEncoder().encode(value)
        XCTAssertEqual(try JSONDecoder().decode(JSONValue.self, from: data), value)
    }
}
