import Foundation
import XCTest
@testable import RPCServer
@testable import ShopRPCBinding

/// The members search and listings filter by: one value or a list, Booleans, one of a set, a list
/// of distinct values; and params that refuse a member they do not declare, on both readers (the
/// direct one and `Decodable`), with the error naming the member.
final class DeclaredFilterParamsTests: XCTestCase {
    private struct Filters: DeclaredParams {
        var category: [String] = []
        var inStock: Bool?
        var sort: String?
        var facets: [String] = []
        static let rejectsUnknownMembers = true
        static let fields: [ParamField<Self>] = [
            .identifierOrList("category", \.category, maxCount: 3, "Categories."),
            .optionalBoolean("inStock", \.inStock, "In stock."),
            .optionalOneOf("sort", \.sort, ["a", "b"], "Order."),
            .optionalList("facets", \.facets, oneOf: ["x", "y"], "Facets."),
        ]
    }

    /// Both readers, and the check after them, as the engine runs them.
    private func read(_ json: String) throws -> Filters {
        let value = try JSONParser.parse(Array(json.utf8))
        let params = try Filters(jsonValue: value) ?? ParamsDecoding.decode(Filters.self, from: value)
        try params.validate()
        let decoded = try ParamsDecoding.decode(Filters.self, from: value)
        XCTAssertEqual(decoded.category, params.category, json)
        XCTAssertEqual(decoded.inStock, params.inStock, json)
        XCTAssertEqual(decoded.facets, params.facets, json)
        return params
    }

    private func assertInvalid(_ json: String, field: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try read(json), json, file: file, line: line) { error in
            let rpcError = error as? RPCError
            XCTAssertEqual(rpcError?.code.rawValue, -32602, file: file, line: line)
            let named: JSONValue? = rpcError?.data?["field"]
            XCTAssertEqual(named, JSONValue.string(field), json, file: file, line: line)
        }
    }

    func test_oneValueOrAList_isAList() throws {
        XCTAssertEqual(try read(#"{"category": "Tea"}"#).category, ["Tea"])
        XCTAssertEqual(try read(#"{"category": ["Tea", "Coffee"]}"#).category, ["Tea", "Coffee"])
        XCTAssertEqual(try read(#"{"category": []}"#).category, [])
        XCTAssertEqual(try read(#"{"category": null}"#).category, [])
        XCTAssertEqual(try read(#"{}"#).category, [])
        assertInvalid(#"{"category": 3}"#, field: "category")
        assertInvalid(#"{"category": ["Tea", 3]}"#, field: "category")
        assertInvalid(#"{"category": ["a", "b", "c", "d"]}"#, field: "category")
        assertInvalid(#"{"category": ""}"#, field: "category")
        assertInvalid(#"{"category": ["Tea", ""]}"#, field: "category[1]")
    }

    func test_booleansOneOfAndDistinctLists() throws {
        XCTAssertEqual(try read(#"{"inStock": false}"#).inStock, false)
        XCTAssertEqual(try read(#"{"sort": "b", "facets": ["y", "x"]}"#).facets, ["y", "x"])
        assertInvalid(#"{"inStock": "yes"}"#, field: "inStock")
        assertInvalid(#"{"inStock": 1}"#, field: "inStock")
        assertInvalid(#"{"sort": "c"}"#, field: "sort")
        assertInvalid(#"{"facets": ["x", "x"]}"#, field: "facets[1]")
        assertInvalid(#"{"facets": ["z"]}"#, field: "facets[0]")
        assertInvalid(#"{"facets": "x"}"#, field: "facets")
    }

    func test_anUnknownMember_isRefused_namingIt() throws {
        assertInvalid(#"{"categories": ["Tea"]}"#, field: "categories")
        assertInvalid(#"{"inStock": true, "brnd": "Acme"}"#, field: "brnd")
        XCTAssertThrowsError(try read(#"{"cursr": "x"}"#)) { error in
            XCTAssertEqual((error as? RPCError)?.message.contains("category, inStock, sort, facets"), true, "\(error)")
        }
    }

    func test_closedParams_sayItInTheirSchema() {
        XCTAssertEqual(Filters.schema["additionalProperties"], false)
        XCTAssertNil(CartParams.schema["additionalProperties"], "other methods still ignore unknown members")
        XCTAssertEqual(CatalogSearchParams.schema["additionalProperties"], false)
        XCTAssertEqual(CatalogListParams.schema["additionalProperties"], false)
    }
}
