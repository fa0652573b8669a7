import RPCServer
import XCTest
@testable import ShopRPCBinding
@testable import ShopAPI

/// Each params type's direct reading (`init?(jsonValue:)`) must agree with its `Decodable`
/// conformance: on a valid example it reads the same params (so the engine's fast path is taken),
/// and on every variant of it (each member dropped, null, or of each other JSON type; an unknown
/// member added; repeated; params that are not an object) it either reads what `Decodable` reads
/// or declines, never accepting what `Decodable` rejects.
final class ShopMethodParamsJSONTests: XCTestCase {
    /// Members of each kind that may stand in for any member's value.
    private static let replacements: [JSONValue] = [
        .null, .bool(true), .int(0), .int(7), .int(-3), .double(2.0), .double(2.5), .string(""), .string("SKU-0001"),
        .array([]), .array([.string("SKU-0001")]), .array([.int(1)]), .object(JSONObject()),
    ]

    private func assertAgreesWithDecodable<Params: DeclaredParams>(
        _ type: Params.Type, valid examples: [JSONValue], file: StaticString = #filePath, line: UInt = #line
    ) {
        for example in examples {
            guard let direct = Params(jsonValue: example) else {
                return XCTFail("\(Params.self) declined its valid example \(example)", file: file, line: line)
            }
            XCTAssertEqual(describe(direct), describe(try? JSONValueDecoder().decode(Params.self, from: example)),
                           "\(Params.self) on \(example)", file: file, line: line)
        }
        var checked = 0, declined = 0
        for variant in examples.flatMap(variants) {
            let decoded = try? JSONValueDecoder().decode(Params.self, from: variant)
            guard let direct = Params(jsonValue: variant) else {
                declined += 1
                continue
            }
            checked += 1
            XCTAssertNotNil(decoded, "\(Params.self) accepted \(variant), which Decodable rejects", file: file, line: line)
            XCTAssertEqual(describe(direct), describe(decoded), "\(Params.self) on \(variant)", file: file, line: line)
        }
        XCTAssertGreaterThan(checked, 0, "no variant of \(Params.self) was read directly", file: file, line: line)
        XCTAssertGreaterThan(declined, 0, "no variant of \(Params.self) was declined", file: file, line: line)
    }

    /// Every one-step change of a valid params object, and params that are not objects at all.
    private func variants(of example: JSONValue) -> [JSONValue] {
        guard case .object(let object) = example else { return [] }
        var variants: [JSONValue] = [.null, .array([example]), .string("x"), .int(1), .object(JSONObject())]
        for member in object.members {
            var without = object
            without[member.key] = nil
            variants.append(.object(without))
            for replacement in Self.replacements {
                var changed = object
                changed[member.key] = replacement
                variants.append(.object(changed))
            }
            // A repeated name: `Decodable` and the direct reading both take the last one.
            var repeatedLast = object
            repeatedLast.append(member.key, .int(1))
            variants.append(.object(repeatedLast))
            var repeatedFirst = JSONObject()
            repeatedFirst.append(member.key, .int(1))
            for original in object.members { repeatedFirst.append(original.key, original.value) }
            variants.append(.object(repeatedFirst))
        }
        var extra = object
        extra["unknown"] = .string("ignored")
        variants.append(.object(extra))
        return variants
    }

    private func describe(_ params: Any?) -> String { params.map { String(reflecting: $0) } ?? "nil" }

    func test_everyParamsType_readsDirectlyWhatDecodableReads_andDeclinesTheRest() {
        assertAgreesWithDecodable(CatalogListParams.self, valid: [
            ["cursor": "abc", "limit": 10, "category": "books"], [:], ["limit": .null, "cursor": .null],
        ])
        assertAgreesWithDecodable(CatalogCountParams.self, valid: [["category": "books"], [:], ["category": .null]])
        assertAgreesWithDecodable(SkuParams.self, valid: [["sku": "SKU-0001"], ["sku": ""]])
        assertAgreesWithDecodable(HandleParams.self, valid: [["handle": "hoodie"], ["handle": ""]])
        assertAgreesWithDecodable(CatalogSearchParams.self, valid: [["query": "mug", "limit": 5], ["query": "mug"]])
        assertAgreesWithDecodable(InventoryCheckParams.self, valid: [["skus": ["SKU-0001", "SKU-0002"]], ["skus": []]])
        assertAgreesWithDecodable(CartParams.self, valid: [["cartId": "c1"]])
        assertAgreesWithDecodable(CartLineParams.self, valid: [["cartId": "c1", "sku": "SKU-0001"]])
        assertAgreesWithDecodable(CartAddParams.self, valid: [["cartId": "c1", "sku": "SKU-0001", "quantity": 2],
                                                              ["cartId": "c1", "sku": "SKU-0001", "quantity": -1]])
        assertAgreesWithDecodable(PlaceOrderParams.self, valid: [["cartId": "c1", "idempotencyKey": "k1"]])
        assertAgreesWithDecodable(OrderParams.self, valid: [["orderId": "ord-1"]])
        assertAgreesWithDecodable(OrdersListParams.self, valid: [["cartId": "c1", "cursor": "x", "limit": 3], [:]])
        assertAgreesWithDecodable(CancelOrderParams.self, valid: [["orderId": "ord-1", "reason": "customer"], ["orderId": "ord-1"]])
        assertAgreesWithDecodable(StockAdjustParams.self, valid: [["sku": "SKU-0001", "delta": -3, "reason": "damaged"]])
        assertAgreesWithDecodable(ProductsUpsertParams.self, valid: [["products": [["sku": "A-1", "stock": 3], ["sku": "B-2", "name": "Mug"]]]])
        assertAgreesWithDecodable(ProductsArchiveParams.self, valid: [["skus": ["A-1", "B-2"]]])
        assertAgreesWithDecodable(StockSetParams.self, valid: [["sku": "SKU-0001", "available": 5, "expected": 3], ["sku": "SKU-0001", "available": 0]])
    }

    /// Every range check of the stock and cancel params is a -32602 naming its field.
    func test_stockAndCancelParams_outOfRange_areInvalidParamsNamingTheField() {
        func field(_ params: any DeclaredParams) -> String? {
            do throws(RPCError) {
                try params.validate()
                return nil
            } catch {
                return error.data?["field"]?.stringValue
            }
        }
        let max = ShopLimits.maxStock
        XCTAssertNil(field(StockAdjustParams(sku: "A", delta: -max, reason: "correction")))
        XCTAssertEqual(field(StockAdjustParams(sku: "A", delta: 0, reason: "received")), "delta")
        XCTAssertEqual(field(StockAdjustParams(sku: "A", delta: max + 1, reason: "received")), "delta")
        XCTAssertEqual(field(StockAdjustParams(sku: "A", delta: 1, reason: "stolen")), "reason")
        XCTAssertEqual(field(StockAdjustParams(sku: "A", delta: 1, reason: "Received")), "reason")
        XCTAssertEqual(field(StockAdjustParams(sku: "", delta: 1, reason: "received")), "sku")
        XCTAssertNil(field(StockSetParams(sku: "A", available: max, expected: 0)))
        XCTAssertEqual(field(StockSetParams(sku: "A", available: -1, expected: nil)), "available")
        XCTAssertEqual(field(StockSetParams(sku: "A", available: max + 1, expected: nil)), "available")
        XCTAssertEqual(field(StockSetParams(sku: "A", available: 1, expected: -1)), "expected")
        XCTAssertNil(field(CancelOrderParams(orderId: "o", reason: String(repeating: "x", count: 256))))
        XCTAssertEqual(field(CancelOrderParams(orderId: "o", reason: String(repeating: "x", count: 257))), "reason")
        XCTAssertEqual(field(CancelOrderParams(orderId: "o", reason: "")), "reason")
        XCTAssertEqual(field(CancelOrderParams(orderId: "", reason: nil)), "orderId")
    }
}
