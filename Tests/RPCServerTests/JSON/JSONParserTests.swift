import XCTest
@testable import RPCServer

final class JSONParserTests: XCTestCase {
    private func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    private func assertParseError(_ bytes: [UInt8], contains detail: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try JSONParser.parse(bytes), file: file, line: line) { error in
            guard let error = error as? JSONParseError else { return XCTFail("wrong error \(error)", file: file, line: line) }
            XCTAssertTrue(error.detail.contains(detail), "\(error.detail) does not mention \(detail)", file: file, line: line)
        }
    }

    func test_parse_scalarsAndContainers_roundTripThroughWriter() throws {
        let text = #"{"a":[1,-2,3.5,true,false,null,"x\n\"y\""],"b":{"c":{}},"d":[]}"#
        let value = try parse(text)
        XCTAssertEqual(value["a"], [1, -2, 3.5, true, false, nil, "x\n\"y\""])
        XCTAssertEqual(String(decoding: JSONWriter.encode(value), as: UTF8.self), text)
    }

    func test_parse_integersAreExact_upToInt64() throws {
        XCTAssertEqual(try parse("9007199254740991"), .int(9_007_199_254_740_991))
        XCTAssertEqual(try parse("-9223372036854775808"), .int(.min))
        XCTAssertEqual(try parse("9223372036854775807"), .int(.max))
        XCTAssertEqual(try parse("9223372036854775808"), .double(9_223_372_036_854_775_808))
    }

    func test_parse_hugeNumbers_doNotTrap() throws {
        XCTAssertEqual(try parse("1e999"), .double(.infinity))
        let hundredThousandDigits = String(repeating: "9", count: 100_000)
        guard case .double(let value) = try parse(hundredThousandDigits) else { return XCTFail("expected a double") }
        XCTAssertTrue(value.isInfinite)
        XCTAssertEqual(String(decoding: JSONWriter.encode(.double(.infinity)), as: UTF8.self), "null")
    }

    func test_parse_unicodeEscapes_includingSurrogatePairs() throws {
        XCTAssertEqual(try parse(#""\u00e9\ud83d\ude00\u0000""#), .string("é😀\u{0}"))
    }

    func test_parse_loneSurrogates_areErrors() {
        assertParseError(Array(#""\ud800""#.utf8), contains: "lone surrogate")
        assertParseError(Array(#""\udc00x""#.utf8), contains: "lone surrogate")
        assertParseError(Array(#""\ud800\u0041""#.utf8), contains: "lone surrogate")
    }

    func test_parse_invalidUTF8_isAnError() {
        assertParseError([0x22, 0xFF, 0xFE, 0x22], contains: "UTF-8")
        assertParseError([0x22, 0x5C, 0x6E, 0xC3, 0x22], contains: "UTF-8")  // escape path, truncated sequence
    }

    func test_parse_rawControlCharacters_includingNUL_areErrors() {
        assertParseError([0x22, 0x00, 0x22], contains: "control character")
        assertParseError(Array("\"a\nb\"".utf8), contains: "control character")
    }

    func test_parse_deepNesting_isAnErrorNotAStackOverflow() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        assertParseError(Array(deep.utf8), contains: "nesting")
        let ok = String(repeating: "[", count: 128) + String(repeating: "]", count: 128)
        XCTAssertNoThrow(try parse(ok))
    }

    func test_parse_malformedInput_reportsOffset() {
        XCTAssertThrowsError(try parse(#"{"a":1,}"#)) { error in
            XCTAssertEqual((error as? JSONParseError)?.offset, 7)
        }
        assertParseError(Array("01".utf8), contains: "leading zero")
        assertParseError(Array("[1,2".utf8), contains: "end of input")
        assertParseError(Array("{} x".utf8), contains: "after the JSON value")
        assertParseError(Array("tru".utf8), contains: "literal")
        assertParseError(Array("\"abc".utf8), contains: "unterminated")
        assertParseError(Array("-".utf8), contains: "number")
        assertParseError(Array("1.e5".utf8), contains: "fraction")
        assertParseError([], contains: "end of input")
    }

    func test_parse_duplicateKeys_lastOneWins() throws {
        XCTAssertEqual(try parse(#"{"a":1,"a":2}"#)["a"], .int(2))
    }

    func test_parse_nonASCIIStrings_areValidatedAndKept() throws {
        XCTAssertEqual(try parse(#"{"caf\#u{E9}":"\#u{1F600} ok"}"#)["caf\u{E9}"], "\u{1F600} ok")
        assertParseError([0x22, 0x61, 0xC3, 0x22], contains: "UTF-8")  // truncated 2-byte sequence after ASCII
        assertParseError([0x22, 0xED, 0xA0, 0x80, 0x22], contains: "UTF-8")  // an encoded surrogate
        assertParseError([0x22, 0xC0, 0xAF, 0x22], contains: "UTF-8")  // overlong encoding
    }

    func test_writer_writesIntegersExactly() {
        for number: Int64 in [0, 7, 10, -1, -10, 1_234_567_890, .max, .min] {
            XCTAssertEqual(String(decoding: JSONWriter.encode(.int(number)), as: UTF8.self), String(number))
        }
        // Integral doubles below 1e15 are written as integers too; others in shortest form.
        for (number, text) in [(2.0, "2"), (-0.0, "0"), (-40.0, "-40"), (999_999_999_999_999.0, "999999999999999"), (2.5, "2.5")] {
            XCTAssertEqual(String(decoding: JSONWriter.encode(.double(number)), as: UTF8.self), text)
        }
    }

    func test_writer_escapesAtEveryPosition() throws {
        for text in ["\"", "\"a", "a\"", "\\\\", "a\u{1F}b\u{0}", "\u{E9}\n\u{1F600}"] {
            let encoded = JSONWriter.encode(.string(text))
            XCTAssertEqual(try JSONParser.parse(encoded), .string(text), text)
            XCTAssertFalse(encoded.contains(0x0A))
        }
    }

    func test_writer_escapesControlCharacters_soOneValueIsOneLine() {
        let encoded = JSONWriter.encode(.string("a\u{1}\n\r\t\"\\b"))
        XCTAssertEqual(String(decoding: encoded, as: UTF8.self), #""a\u0001\n\r\t\"\\b""#)
        XCTAssertFalse(encoded.contains(0x0A))
    }
}
