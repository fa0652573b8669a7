import XCTest
@testable import RPCServer

/// The parser returns the envelope's strings ("jsonrpc", "2.0", "id", "method", "params") as
/// literals; bytes of the same lengths that differ, and the same words escaped, still read as written.
final class JSONParserEnvelopeStringTests: XCTestCase {
    func test_envelopeWordsAndTheirNearMisses_readAsWritten() throws {
        let words = ["jsonrpc", "2.0", "id", "method", "params", "jsonrpC", "2.1", "ie", "Id", "methoD", "paramz", "metho", "params ", "",
                     "xsonrpc", "jsoXrpc", "jsonXpc", "2x0", "x.0", "xd", "Xethod", "metXod", "Xarams", "parXms"]
        for word in words {
            let text = #"{"\#(word)":"\#(word)"}"#
            let parsed = try JSONParser.parse(Array(text.utf8))
            XCTAssertEqual(parsed.objectValue?.members.first?.key, word, text)
            XCTAssertEqual(parsed[word], .string(word), text)
        }
        XCTAssertEqual(try JSONParser.parse(Array(#""\u0069d""#.utf8)), "id", "an escaped envelope word is the same string")
    }
}
