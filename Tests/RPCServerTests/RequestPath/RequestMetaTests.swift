import XCTest
@testable import RPCServer

/// `params._meta`: every number a client can put there, checked in one place.
final class RequestMetaTests: XCTestCase {
    private func meta(_ members: JSONObject) throws(RPCError) -> RequestMeta {
        try RequestMeta.split(.object(["sku": "A", "_meta": .object(members)])).meta
    }

    private func field(of members: JSONObject) -> String? {
        do throws(RPCError) {
            _ = try meta(members)
            return nil
        } catch {
            return error.data?["field"]?.stringValue
        }
    }

    func test_deadlineAtOrAboveTheMethods_isClampedToIt_withoutConvertingToAnInteger() throws {
        // Each of these trapped (Double → Int) before the check moved here.
        let huge: [JSONValue] = [.double(1e19), .int(.max), .double(0x1p63) /* 2^63, what 9_223_372_036_854_775_807 becomes as a Double */, .double(0x1p63 - 512),
                                 .double(1e308), .double(.greatestFiniteMagnitude), .int(30_000), .double(30_000.5)]
        for value in huge {
            XCTAssertEqual(try meta(["deadlineMs": value]).deadlineMs(methodDeadlineMs: 30_000), 30_000, "\(value)")
        }
    }

    func test_deadlineBelowTheMethods_shortensIt_roundedUpToWholeMilliseconds() throws {
        XCTAssertEqual(try meta(["deadlineMs": 250]).deadlineMs(methodDeadlineMs: 5_000), 250)
        XCTAssertEqual(try meta(["deadlineMs": 1.2]).deadlineMs(methodDeadlineMs: 5_000), 2)
        XCTAssertEqual(try meta(["deadlineMs": .double(1e-300)]).deadlineMs(methodDeadlineMs: 5_000), 1)
        XCTAssertEqual(try meta(["deadlineMs": .double(4_999.0001)]).deadlineMs(methodDeadlineMs: 5_000), 5_000)
        XCTAssertEqual(try meta([:]).deadlineMs(methodDeadlineMs: 5_000), 5_000)
    }

    func test_deadlineThatIsNotAPositiveNumber_isInvalidParamsNamingTheField() {
        for value: JSONValue in [0, -1, .double(-0.0), .double(-1e19), "100", .null, true, [1], ["ms": 1]] {
            XCTAssertEqual(field(of: ["deadlineMs": value]), "_meta.deadlineMs", "\(value)")
        }
    }

    func test_progressToken_isAStringOrAnInteger() throws {
        XCTAssertEqual(try meta(["progressToken": "t"]).progressToken, "t")
        XCTAssertEqual(try meta(["progressToken": .int(.min)]).progressToken, .int(.min))
        for value: JSONValue in [1.5, .null, false, [:], []] {
            XCTAssertEqual(field(of: ["progressToken": value]), "_meta.progressToken", "\(value)")
        }
    }

    func test_actor_isANonEmptyStringOfAtMost256Bytes() throws {
        XCTAssertEqual(try meta(["actor": "agent:claude"]).actor, "agent:claude")
        XCTAssertEqual(try meta(["actor": .string(String(repeating: "é", count: 128))]).actor?.utf8.count, 256)
        XCTAssertNil(try meta([:]).actor)
        for value: JSONValue in ["", .string(String(repeating: "x", count: 257)), .string(String(repeating: "é", count: 129)), 7, .null, ["id": "x"]] {
            XCTAssertEqual(field(of: ["actor": value]), "_meta.actor", "\(value)")
        }
    }

    /// Control characters and bidirectional formatting would let an actor rewrite what a reader
    /// of the ledger sees (a forged log line, an ANSI colour, "admin" spelt backwards).
    func test_actor_withAControlCharacterOrBidiFormatting_isInvalidParamsNamingTheField() throws {
        let refused: [Unicode.Scalar] = ["\u{0}", "\u{7}", "\u{9}", "\u{A}", "\u{D}", "\u{1B}", "\u{1F}", "\u{7F}", "\u{80}", "\u{85}", "\u{9F}",
                                         "\u{2028}", "\u{2029}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}",
                                         "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}"]
        for scalar in refused {
            for value in ["\(scalar)", "ops:\(scalar)dana", "dana\(scalar)"] {
                XCTAssertEqual(field(of: ["actor": .string(value)]), "_meta.actor", "U+\(String(scalar.value, radix: 16))")
            }
        }
        XCTAssertThrowsError(try meta(["actor": "\u{202E}nimda"])) { error in
            XCTAssertTrue((error as? RPCError)?.message.contains("U+202E") == true, "\(error)")
        }
        for allowed in ["ops:dana", "José", "agent:🙂", "=1+1", "\u{A0}x", "\u{200F}x", "\u{2065}x", "\u{206A}x"] {
            XCTAssertEqual(try meta(["actor": .string(allowed)]).actor, allowed, allowed.debugDescription)
        }
    }

    func test_metaIsRemovedFromTheParams_andMustBeAnObject() throws {
        let (params, _) = try RequestMeta.split(.object(["sku": "A", "_meta": ["deadlineMs": 5]]))
        XCTAssertEqual(params, .object(["sku": "A"]))
        XCTAssertEqual(try RequestMeta.split(.array([1])).params, .array([1]))
        XCTAssertNil(try RequestMeta.split(nil).params)
        XCTAssertThrowsError(try RequestMeta.split(.object(["_meta": 5]))) { error in
            XCTAssertEqual((error as? RPCError)?.data?["field"], "_meta")
        }
    }
}
