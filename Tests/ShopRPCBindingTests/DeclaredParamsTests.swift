import Foundation
import XCTest
@testable import RPCServer
@testable import ShopRPCBinding

/// A params type is its declaration: the fields' names are the wire's (for direct reading and for
/// `Decodable` alike, whatever the properties are called), their bounds are the schema's and the
/// checks', and each violation names its member.
final class DeclaredParamsTests: XCTestCase {
    private struct Renamed: DeclaredParams {
        var internalName = ""
        var count: Int?
        static let fields: [ParamField<Self>] = [
            .identifier("wireName", \.internalName, "A name."),
            .optionalInteger("count", \.count, 1...5, "How many."),
        ]
    }

    func test_readingAndDecodable_bothUseTheFieldsNames() throws {
        let json: JSONValue = ["wireName": "x", "count": 3]
        XCTAssertEqual(Renamed(jsonValue: json)?.internalName, "x")
        let decoded = try JSONDecoder().decode(Renamed.self, from: Data(#"{"wireName": "y", "count": 2}"#.utf8))
        XCTAssertEqual(decoded.internalName, "y")
        XCTAssertEqual(decoded.count, 2)
        XCTAssertThrowsError(try JSONDecoder().decode(Renamed.self, from: Data(#"{"internalName": "y"}"#.utf8)),
                             "the property's own name is not a member")
        XCTAssertNil(Renamed(jsonValue: ["internalName": "x"]))
    }

    func test_schema_listsEveryField_withItsDescriptionAndBounds_andTheRequiredOnes() {
        XCTAssertEqual(Renamed.schema, [
            "type": "object",
            "properties": [
                "wireName": ["type": "string", "description": "A name."],
                "count": ["type": "integer", "minimum": 1, "maximum": 5, "description": "How many."],
            ],
            "required": ["wireName"],
        ])
    }

    func test_validate_namesTheFirstMemberOutOfBounds() {
        var params = Renamed()
        XCTAssertThrowsError(try params.validate()) { XCTAssertEqual(($0 as? RPCError)?.data?["field"], "wireName") }
        params.internalName = "ok"
        params.count = 6
        XCTAssertThrowsError(try params.validate()) { XCTAssertEqual(($0 as? RPCError)?.data?["field"], "count") }
        params.count = nil
        XCTAssertNoThrow(try params.validate())
    }

    /// The integer bounds are compared as ranges, so the ends of Int are errors, never traps.
    func test_integerChecks_atTheEndsOfInt_areInvalidParams() {
        for value in [Int.min, Int.min + 1, -1_000_000_001, 0, 1_000_000_001, Int.max] {
            XCTAssertThrowsError(try ParamChecks.integer(value, "delta", -1_000_000_000...1_000_000_000, excluding: 0, checkingUpperBound: true),
                                 "\(value)")
        }
        XCTAssertNoThrow(try ParamChecks.integer(-1_000_000_000, "delta", -1_000_000_000...1_000_000_000, excluding: 0, checkingUpperBound: true))
    }
}
