import XCTest
@testable import ShopAPI

/// The two stores answer every search alike: a generated catalog imported into SQLite (with its
/// FTS5 index, and without it) and into PostgreSQL gives the same products in the same order for
/// hundreds of generated queries (whole words, prefixes of every length, several words, case and
/// accents and punctuation, limits). Needs PostgreSQL (`scripts/with-postgres`).
final class SearchStoreEqualityTests: XCTestCase {
    private static let adjectives = ["Classic", "Crème", "Rustic", "Ståål", "Modern", "Naïve", "Compact", "Brass", "3D", "XL"]
    private static let syllables = ["ka", "ri", "to", "vel", "mor", "an", "zu", "pe", "lor", "dan", "é", "ß"]
    private static let nouns = ["Kettle", "Lamp", "Grinder", "Mug", "Press", "Café Set", "Tray", "Box", "Pan", "Pot"]
    private static let categories = ["kitchen", "coffee", "lighting", "décor", "tools", "toys"]

    /// 4 000 products: "<adjective> <made-up word> <noun>", catalog order shuffled against SKU order.
    private func catalog(_ random: inout SplitMix64) -> [CatalogRow] {
        (0..<4000).map { index in
            let madeUp = (0..<(2 + random.next(below: 3))).map { _ in random.pick(Self.syllables) }.joined().capitalized
            let name = "\(random.pick(Self.adjectives)) \(madeUp) \(random.pick(Self.nouns))"
            let number = (index * 7919) % 4000
            return CatalogRow(line: index + 2, sku: String(format: "EQ-%05ld", number), name: name,
                              category: random.pick(Self.categories), priceCents: 100 + index)
        }
    }

    private func queries(_ rows: [CatalogRow], _ random: inout SplitMix64) -> [(String, Int)] {
        var queries: [(String, Int)] = []
        for _ in 0..<300 {
            // Words of one product (so that they meet), each cut to a random length.
            let product = random.pick(rows)
            let words = SearchText.productWords(name: product.name!, category: product.category!)
            var parts: [String] = []
            for _ in 0..<(1 + random.next(below: 3)) {
                let word = random.pick(words)
                let length = 1 + random.next(below: max(1, word.count))
                var part = String(word.prefix(length))
                if random.next(below: 3) == 0 { part = part.uppercased() }
                parts.append(part)
            }
            let separator = random.pick([" ", "-", ", ", "  \"", "*"])
            queries.append((parts.joined(separator: separator), random.pick([1, 7, 50, 200])))
        }
        return queries + [("creme", 200), ("CRÈME", 200), ("staal", 200), ("naive", 200), ("cafe set", 200), ("3d", 200), ("x", 200), ("xl", 200)]
    }

    func test_sqliteAndPostgreSQL_giveTheSameResultsInTheSameOrder() throws {
        let postgres = try PostgreSQLTestDatabase()
        defer { postgres.drop() }
        var random = SplitMix64(seed: 36)
        let rows = catalog(&random)
        let services = [
            try ShopService.open(path: ":memory:", creation: .empty),
            ShopService(store: try SQLiteShopStore.open(path: ":memory:", creation: .empty, allowFullTextSearch: false)),
            try ShopService.open(path: postgres.uri, creation: .empty),
            // The same database, each search taking all three of its steps (see searchProducts).
            ShopService(store: try PostgreSQLShopStore.open(
                uri: postgres.uri, poolSize: 1, creation: .empty,
                searchLimits: PostgreSQLSearchLimits(rowWordChecks: 10, minimumRowsToCheck: 5, matchesToFetch: 3))),
        ]
        for service in services.prefix(3) {
            let (outcome, errors) = try service.importRows(rows)
            XCTAssertEqual(errors, [])
            XCTAssertTrue(outcome.committed)
        }
        var nonEmpty = 0
        for (query, limit) in queries(rows, &random) {
            let answers = try services.map { try $0.searchItems(query, limit: limit).map(\.sku) }
            XCTAssertEqual(answers[1], answers[0], "SQLite without FTS5, \(query.debugDescription) limit \(limit)")
            XCTAssertEqual(answers[2], answers[0], "PostgreSQL, \(query.debugDescription) limit \(limit)")
            XCTAssertEqual(answers[3], answers[0], "PostgreSQL in three steps, \(query.debugDescription) limit \(limit)")
            if !answers[0].isEmpty { nonEmpty += 1 }
        }
        XCTAssertGreaterThan(nonEmpty, 100, "most queries find something (words cut to one or two characters often do not)")
    }
}
