import XCTest
@testable import ShopAPI

/// Every store answers every search alike: a generated catalog imported into SQLite (with its
/// FTS5 index, and without it), the in-memory reference and PostgreSQL (when
/// `SHOP_RPC_TEST_POSTGRES_URI` is set) gives the same pages (items in the same order, totals,
/// cursors, corrections, dropped words, facets) for hundreds of generated requests: whole words,
/// prefixes of every length, typos, plurals, several words, case, accents and punctuation, filters,
/// facets, sorts and paging.
final class SearchStoreEqualityTests: XCTestCase {
    private static let adjectives = ["Classic", "Crème", "Rustic", "Ståål", "Modern", "Naïve", "Compact", "Brass", "3D", "XL"]
    private static let syllables = ["ka", "ri", "to", "vel", "mor", "an", "zu", "pe", "lor", "dan", "é", "ß"]
    private static let nouns = ["Kettle", "Lamp", "Grinder", "Mug", "Press", "Café Set", "Tray", "Box", "Pan", "Pot"]
    private static let categories = ["kitchen", "coffee", "lighting", "décor", "tools", "toys"]

    /// 2 000 products (more than a search ranks, `ProductSearch.rankingWindow`): "<adjective>
    /// <made-up word> <noun>", catalog order shuffled against SKU order.
    private func catalog(_ random: inout SplitMix64) -> [CatalogRow] {
        (0..<2000).map { index in
            let madeUp = (0..<(2 + random.next(below: 3))).map { _ in random.pick(Self.syllables) }.joined().capitalized
            let name = "\(random.pick(Self.adjectives)) \(madeUp) \(random.pick(Self.nouns))"
            let number = (index * 7919) % 2000
            return CatalogRow(line: index + 2, sku: String(format: "EQ-%05ld", number), name: name,
                              category: random.pick(Self.categories), priceCents: 100 + index)
        }
    }

    private func queries(_ rows: [CatalogRow], _ random: inout SplitMix64) -> [(String, Int)] {
        var queries: [(String, Int)] = []
        for _ in 0..<300 {
            // Words of one product (so that they meet), each cut to a random length.
            let product = random.pick(rows)
            let words = Array(SearchIndexTerms.words(of: SearchDocument(name: product.name!, category: product.category!)))
                .sorted(by: SearchWordOrder.precedes)
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
        guard PostgreSQLTestDatabase.clusterURI != nil else { throw XCTSkip("needs PostgreSQL (scripts/with-postgres)") }
        let postgres = try PostgreSQLTestDatabase()
        defer { postgres.drop() }
        var random = SplitMix64(seed: 36)
        let rows = catalog(&random)
        let services = [
            try ShopService.open(path: ":memory:", creation: .empty),
            ShopService(store: try SQLiteShopStore.open(path: ":memory:", creation: .empty, allowFullTextSearch: false)),
            try ShopService.open(path: postgres.uri, creation: .empty),
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
            if !answers[0].isEmpty { nonEmpty += 1 }
        }
        XCTAssertGreaterThan(nonEmpty, 100, "most queries find something (words cut to one or two characters often do not)")
    }

    // MARK: - Ranking, typos, filters, facets, sorts and paging

    private static let brands = ["Baratza", "De'Longhi", "Hario", "Kiehl's", "Fellow", ""]
    private static let descriptions = ["Organic and fair trade.", "Ships in recyclable packaging.", "Waterproof, for every season.",
                                       "Pour-over friendly, 500 ml.", "Loved by baristas.", ""]

    /// 300 products with brands, descriptions, prices, stock (some sold out) and a few variants.
    private func richCatalog(_ random: inout SplitMix64) -> [CatalogRow] {
        var rows: [CatalogRow] = []
        for index in 0..<300 {
            let madeUp = (0..<(2 + random.next(below: 2))).map { _ in random.pick(Self.syllables) }.joined().capitalized
            let name = "\(random.pick(Self.adjectives)) \(madeUp) \(random.pick(Self.nouns))"
            let handle = String(format: "p-%04ld", index)
            let variants = random.next(below: 5) == 0 ? 2 : 1
            for variant in 0..<variants {
                rows.append(CatalogRow(line: rows.count + 2, sku: String(format: "RC-%04ld-%ld", index, variant), name: name,
                                       description: random.pick(Self.descriptions), category: random.pick(Self.categories),
                                       priceCents: 100 + random.next(below: 20_000), stock: random.next(below: 4) == 0 ? 0 : 3,
                                       handle: handle, brand: random.pick(Self.brands),
                                       optionNames: variants > 1 ? ["Size"] : nil, optionValues: variants > 1 ? ["S\(variant)"] : nil))
            }
        }
        return rows
    }

    private func richRequests(_ rows: [CatalogRow], _ random: inout SplitMix64) -> [ProductSearchRequest] {
        var requests: [ProductSearchRequest] = []
        for _ in 0..<100 {
            let product = random.pick(rows)
            let text = "\(product.name!) \(product.description!) \(product.brand ?? "")"
            let words = text.split(whereSeparator: { $0 == " " }).map(String.init)
            var parts: [String] = []
            for _ in 0..<(1 + random.next(below: 3)) {
                var word = random.pick(words)
                switch random.next(below: 6) {
                case 0 where word.count > 5:  // a typo
                    var scalars = Array(word)
                    scalars.swapAt(1, 2)
                    word = String(scalars)
                case 1: word += "s"  // a plural
                case 2: word = String(word.prefix(1 + random.next(below: max(1, word.count))))  // a prefix
                default: break
                }
                parts.append(word)
            }
            var request = ProductSearchRequest(query: parts.joined(separator: random.pick([" ", "-", " for "])),
                                               sort: random.pick(ProductSearchSort.allCases), limit: random.pick([3, 7, 20]))
            if random.next(below: 3) == 0 { request.filters.categories = [random.pick(Self.categories)] }
            if random.next(below: 4) == 0 { request.filters.brands = [random.pick(Self.brands)] }
            if random.next(below: 4) == 0 { request.filters.priceMinCents = random.next(below: 10_000) }
            if random.next(below: 4) == 0 { request.filters.priceMaxCents = 5_000 + random.next(below: 15_000) }
            if random.next(below: 5) == 0 { request.filters.inStock = random.next(below: 2) == 0 }
            if random.next(below: 2) == 0 { request.facets = [.category, .brand] }
            request.highlights = random.next(below: 3) == 0
            requests.append(request)
        }
        return requests + [ProductSearchRequest(query: "", limit: 50, facets: [.brand]),
                           ProductSearchRequest(query: "delonghi grinder", limit: 50), ProductSearchRequest(query: "pourover", limit: 50),
                           ProductSearchRequest(query: "organc", limit: 50), ProductSearchRequest(query: "RC-0042-1")]
    }

    func test_everyStore_givesTheSamePages_forRankingTyposFiltersFacetsAndPaging() throws {
        var random = SplitMix64(seed: 42)
        let rows = richCatalog(&random)
        let stores = try SearchTestStores(rows)
        defer { stores.postgres?.drop() }
        let services = stores.services
        var nonEmpty = 0, multiPage = 0
        for var request in richRequests(rows, &random) {
            // Every page of the request (at most 5), on every store.
            for _ in 0..<5 {
                let pages = try services.map { try $0.1.searchProducts(request, interruption: nil) }
                for (index, page) in pages.enumerated().dropFirst() {
                    XCTAssertEqual(page, pages[0], "\(services[index].0): \(request)")
                }
                if !pages[0].items.isEmpty { nonEmpty += 1 }
                guard let next = pages[0].nextCursor else { break }
                multiPage += 1
                request.cursor = next
            }
        }
        XCTAssertGreaterThan(nonEmpty, 60, "most requests find something")
        XCTAssertGreaterThan(multiPage, 15, "many requests have a next page")
    }
}
