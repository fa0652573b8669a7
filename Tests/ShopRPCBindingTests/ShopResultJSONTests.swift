import Foundation
import RPCServer
import XCTest
@testable import ShopRPCBinding
@testable import ShopAPI

/// Each result type's hand-written `jsonValue` must say exactly what its `Codable` conformance
/// says: checked against Foundation's `JSONEncoder` (same members and values) and against the
/// declaration order of its stored properties (same member order, nil optionals left out).
final class ShopResultJSONTests: XCTestCase {
    private let product = Product(sku: "SKU-0001", name: "Mug \u{2615}", description: "A \"quoted\"\nline", category: "kitchen",
                                  priceCents: 1299, currency: "USD")
    private let line = CartLine(sku: "SKU-0002", quantity: 3, unitPriceCents: 450)

    private func assertMatchesCodable<T: JSONValueConvertible>(_ value: T, file: StaticString = #filePath, line: UInt = #line) throws {
        let foundation = try JSONParser.parse(Array(try JSONEncoder().encode(value)))
        XCTAssertEqual(value.jsonValue, foundation, "\(T.self)", file: file, line: line)
        let presentLabels = Mirror(reflecting: value).children.compactMap { child -> String? in
            if let optional = child.value as? any OptionalProtocol, optional.isNil { return nil }
            return child.label
        }
        XCTAssertEqual(value.jsonValue.objectValue?.members.map(\.key), presentLabels, "\(T.self) member order", file: file, line: line)
    }

    /// A marked-stale level writes `stale: true` before `ageMs` (no stored property for `stale`, so
    /// the member order is spelled out here rather than read from the declaration).
    func test_staleLevel_matchesItsCodableEncoding_withStaleBeforeAge() throws {
        for level in [StockLevel(sku: "SKU-0003", available: 7, ageMs: 1250), StockLevel(sku: "SKU-0004", available: 0, ageMs: 0)] {
            let foundation = try JSONParser.parse(Array(try JSONEncoder().encode(level)))
            XCTAssertEqual(level.jsonValue, foundation)
            XCTAssertEqual(level.jsonValue.objectValue?.members.map(\.key), ["sku", "available", "stale", "ageMs"])
            XCTAssertEqual(level.jsonValue.objectValue?["stale"], .bool(true))
            XCTAssertEqual(try JSONDecoder().decode(StockLevel.self, from: try JSONEncoder().encode(level)), level)
        }
        XCTAssertNil(StockLevel(sku: "A", available: 1).jsonValue.objectValue?["stale"], "a fresh level carries no stale member")
    }

    func test_everyResultType_matchesItsCodableEncoding() throws {
        let order = Order(orderId: "ord-1", cartId: "cart-1", lines: [line], totalCents: 1350, currency: "USD",
                          status: Order.placedStatus, createdAt: "2026-11-23T00:00:00Z")
        try assertMatchesCodable(product)
        try assertMatchesCodable(StockLevel(sku: "SKU-0001", available: 0))
        try assertMatchesCodable(InventoryLevels(levels: [StockLevel(sku: "SKU-0001", available: 4), StockLevel(sku: "SKU-0002", available: 0)]))
        try assertMatchesCodable(line)
        try assertMatchesCodable(Cart(cartId: "cart-1", lines: [line], totalCents: 1350, currency: "USD"))
        try assertMatchesCodable(Cart(cartId: "empty", lines: [], totalCents: 0, currency: "USD"))
        try assertMatchesCodable(order)
        try assertMatchesCodable(order.cancelled(at: "2026-11-24T00:00:00.000Z", reason: "customer"))
        try assertMatchesCodable(order.cancelled(at: "2026-11-24T00:00:00.000Z", reason: nil))
        let hoodie = Product(sku: "HOOD-S", name: "Hoodie", description: "", category: "apparel", priceCents: 4500, currency: "USD",
                             handle: "hoodie", brand: "Acme", options: [ProductOption(name: "Size", value: "S")])
        let choices = [VariantChoice(sku: "HOOD-S", options: hoodie.options, priceCents: 4500, inStock: true),
                       VariantChoice(sku: "HOOD-M", options: [ProductOption(name: "Size", value: "M")], priceCents: 4700, inStock: false)]
        let item = CatalogItem(first: hoodie, variants: choices)
        try assertMatchesCodable(hoodie)
        try assertMatchesCodable(item)
        try assertMatchesCodable(ProductSearchPage(items: [item, CatalogItem(first: product, variants: [])], total: 2, nextCursor: nil))
        let highlighted = item.highlighted(CatalogItemHighlights(name: [TextRange(start: 0, end: 6)], description: []))
        try assertMatchesCodable(highlighted)
        try assertMatchesCodable(ProductSearchPage(
            items: [highlighted], total: 41, nextCursor: "s1", readAs: "hoodie grey",
            corrections: [SearchWordCorrection(word: "hoody", readAs: "hoodie")], droppedWords: ["grey"],
            facets: ProductFacetCounts(category: [FacetValueCount(value: "apparel", count: 40), FacetValueCount(value: "gifts", count: 1)],
                                       brand: nil)))
        try assertMatchesCodable(CatalogPage(items: [item], nextCursor: "SKU-0001"))
        try assertMatchesCodable(SearchSynonyms(groups: [["tee", "T-Shirt"], ["a", "b", "c"]],
                                                rules: [SearchSynonyms.Rule(input: "laptop", synonyms: ["notebook", "ultrabook"])]))
        try assertMatchesCodable(SearchSynonyms.none)
        try assertMatchesCodable(ProductWithVariants(
            handle: "hoodie", name: "Hoodie", description: "", category: "apparel", brand: "Acme", optionNames: ["Size"], currency: "USD",
            variants: [ProductVariant(sku: "HOOD-S", options: hoodie.options, priceCents: 4500, available: 3)]))
        try assertMatchesCodable(CatalogPage(items: [], nextCursor: nil))
        try assertMatchesCodable(OrderPage(items: [order], nextCursor: "c"))
        try assertMatchesCodable(OrderPage(items: [], nextCursor: nil))
    }

    func test_encoderUsesTheDirectConversion_atAnyDepth() throws {
        struct Wrapper: Encodable { let product: Product; let levels: [StockLevel] }
        let levels = [StockLevel(sku: "SKU-0001", available: 2)]
        let encoded = try JSONValueEncoder().encode(Wrapper(product: product, levels: levels))
        XCTAssertEqual(encoded["product"], product.jsonValue)
        XCTAssertEqual(encoded["levels"], .array(levels.map(\.jsonValue)))
    }
}

/// Lets the test tell a nil optional among a `Mirror`'s children.
private protocol OptionalProtocol { var isNil: Bool { get } }
extension Optional: OptionalProtocol {
    var isNil: Bool { if case .none = self { true } else { false } }
}
