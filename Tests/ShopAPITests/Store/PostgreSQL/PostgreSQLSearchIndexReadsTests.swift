import XCTest
@testable import ShopAPI

/// `SearchIndexReads` on PostgreSQL: a vocabulary of the live products' words only, with exact
/// counts after every kind of change (import, rename, `--replace`, status, archive, a variant
/// joining), complete prefix lookups, candidates with each filter in catalog order, their count,
/// and the entries search ranks. Skipped, with a message, when `SHOP_RPC_TEST_POSTGRES_URI` is
/// not set (`scripts/with-postgres swift test --filter PostgreSQL`).
final class PostgreSQLSearchIndexReadsTests: XCTestCase {
    private var database: PostgreSQLTestDatabase!
    private var service: ShopService!
    private var store: PostgreSQLShopStore!
    private var admin: PostgreSQLConnection!

    override func setUpWithError() throws {
        database = try PostgreSQLTestDatabase()
        service = try ShopService.open(path: database.uri, creation: .empty)
        store = try PostgreSQLShopStore.open(uri: database.uri, poolSize: 1, creation: .empty)
        admin = try PostgreSQLConnection(uri: database.uri)
    }

    override func tearDown() {
        admin = nil
        store = nil
        service = nil
        database?.drop()
        super.tearDown()
    }

    private static let header = "sku,name,description,category,priceCents,currency,stock,handle,brand,status\n"

    // MARK: - Vocabulary

    func test_vocabulary_isTheLiveProductsWords_exactAfterRenameArchiveStatusAndReplace() throws {
        try importCSV("""
            M-1,Red Mouse,Wireless optical,mice,1500,USD,3,,Acme,
            M-2,Blue Mouse,Corded,mice,900,USD,0,,Zeta,
            K-1,Red Kettle,Pour-over spout,kitchen,4500,USD,2,,Acme,
            D-1,Draft Lamp,Hidden words,kitchen,100,USD,1,,Acme,draft
            """)
        try assertVocabularyIsLiveProducts()
        XCTAssertEqual(try read { try $0.documentFrequency(of: "mouse") }, 2)
        XCTAssertEqual(try read { try $0.documentFrequency(of: "acme") }, 2, "the draft's brand does not count")
        XCTAssertEqual(try read { try $0.documentFrequency(of: "lamp") }, 0, "a draft's words are not in the vocabulary")

        try importCSV("M-1,Green Mouse,Wireless optical,mice,1500,USD,3,,Acme,\n")
        try assertVocabularyIsLiveProducts()
        XCTAssertEqual(try read { try $0.documentFrequency(of: "red") }, 1, "the renamed product no longer has red")
        XCTAssertEqual(try read { try $0.documentFrequency(of: "green") }, 1)

        XCTAssertEqual(try service.archiveProductsAndWait(["M-2"]).get().archived, 1)
        try assertVocabularyIsLiveProducts()
        XCTAssertEqual(try read { try $0.documentFrequency(of: "blue") }, 0)
        XCTAssertEqual(try read { try $0.documentFrequency(of: "zeta") }, 0)
        XCTAssertEqual(try read { try $0.documentFrequency(of: "mouse") }, 1)
        XCTAssertEqual(try service.archiveProductsAndWait(["M-2"]).get().archived, 0, "archiving twice counts once")
        try assertVocabularyIsLiveProducts()

        try importCSV("D-1,Draft Lamp,Hidden words,kitchen,100,USD,1,,Acme,active\nK-1,Red Kettle,Pour-over spout,kitchen,4500,USD,2,,Acme,draft\n")
        try assertVocabularyIsLiveProducts()
        XCTAssertEqual(try read { try $0.documentFrequency(of: "lamp") }, 1, "a draft made active joins the vocabulary")
        XCTAssertEqual(try read { try $0.documentFrequency(of: "kettle") }, 0, "an active product made draft leaves it")

        try importCSV("D-1,Draft Lamp,Hidden words,kitchen,100,USD,1,,Acme,\n", replace: true)
        try assertVocabularyIsLiveProducts()
        XCTAssertEqual(try vocabulary(), Dictionary(uniqueKeysWithValues: try expectedVocabulary(["D-1"]).map { ($0.key, $0.value) }))
    }

    /// The word-list bug of #42: 64 `Proa…` words filled the old capped prefix lookup, and after
    /// `--replace` kept only the protein, `pro` still found nothing.
    func test_wordListBug_replaceKeepingOnlyTheProtein_proFindsIt() throws {
        let mice = (0..<64).map { String(format: "P-%02d,Proa%02d Mouse,,mice,1000,USD,1,,,", $0, $0) }.joined(separator: "\n")
        try importCSV(mice + "\nWHEY-1,Whey Protein 1kg,,food,2000,USD,1,,,\n")
        XCTAssertEqual(try read { try $0.searchCandidateCount(lookups: [try Self.lookup("pro", in: $0)], filters: ProductSearchFilters()) }, 65,
                       "every product with a word beginning with pro, beyond 64 words")

        try importCSV("WHEY-1,Whey Protein 1kg,,food,2000,USD,1,,,\n", replace: true)
        let whey = try seq(of: "WHEY-1")
        try read { transaction in
            let pro = try Self.lookup("pro", in: transaction)
            XCTAssertEqual(pro.prefix, "pro")
            XCTAssertEqual(try transaction.searchCandidates(lookups: [pro], filters: ProductSearchFilters(), limit: 20), [whey])
            XCTAssertEqual(try Self.words(of: transaction, beginningWith: "pro"), ["protein"], "no archived product's word is left")
        }
        try assertVocabularyIsLiveProducts()
    }

    func test_prefixLookupAndVocabulary_areCompleteBeyondAPageOfWords() throws {
        let rows = (0..<300).map { String(format: "Z-%03d,Zq%03d Widget,,widgets,100,USD,1,,,", $0, $0) }
        try importCSV(rows.joined(separator: "\n") + "\n")
        try read { transaction in
            let words = try Self.words(of: transaction, beginningWith: "zq")
            XCTAssertEqual(words, (0..<300).map { String(format: "zq%03d", $0) }, "ascending, each once, across pages")
            let lookup = SearchQueryPlan.WordLookup(words: ["zq"], stemKey: "zq", prefix: "zq", split: nil)
            XCTAssertEqual(try transaction.searchCandidateCount(lookups: [lookup], filters: ProductSearchFilters()), 300)
            XCTAssertEqual(try transaction.searchCandidates(lookups: [lookup], filters: ProductSearchFilters(), limit: 1000).count, 300)
            var visited: [String] = []
            try transaction.enumerateWords(from: "zq010", to: nil) { word in
                visited.append(word)
                return visited.count < 3
            }
            XCTAssertEqual(visited, ["zq010", "zq011", "zq012"], "from the lower bound, stopping when asked")
        }
    }

    // MARK: - Candidates

    func test_candidates_matchEveryLookupByWordStemPrefixOrSplit_inCatalogOrderWithLimitAndCount() throws {
        try importCSV("""
            S-1,Running Shoes,Light trail shoe,shoes,5000,USD,3,,Stride,
            S-2,Walking Shoe,,shoes,4000,USD,3,,Stride,
            C-1,Pour-over Coffee Maker,,kitchen,3000,USD,3,,Brew,
            C-2,Coffee Pot,,kitchen,2500,USD,3,,Brew,
            C-3,Coffee Cup,,kitchen,500,USD,3,,Brew,
            """)
        let (s1, s2, c1, c2, c3) = (try seq(of: "S-1"), try seq(of: "S-2"), try seq(of: "C-1"), try seq(of: "C-2"), try seq(of: "C-3"))
        try read { transaction in
            let none = ProductSearchFilters()
            func candidates(_ lookups: [SearchQueryPlan.WordLookup], limit: Int = 50) throws -> [Int64] {
                try transaction.searchCandidates(lookups: lookups, filters: none, limit: limit)
            }
            let shoes = SearchQueryPlan.WordLookup(words: ["shoes"], stemKey: "shoe", prefix: nil, split: nil)
            XCTAssertEqual(try candidates([shoes]), [s1, s2], "shoes by its word, shoe by its stem key")
            let coffee = SearchQueryPlan.WordLookup(words: ["coffee"], stemKey: "coffee", prefix: nil, split: nil)
            XCTAssertEqual(try candidates([coffee]), [c1, c2, c3])
            XCTAssertEqual(try candidates([coffee], limit: 2), [c1, c2], "the first ones in catalog order")
            XCTAssertEqual(try transaction.searchCandidateCount(lookups: [coffee], filters: none), 3)
            let pourover = SearchQueryPlan.WordLookup(words: ["pourover"], stemKey: "pourover", prefix: nil, split: nil)
            XCTAssertEqual(try candidates([pourover]), [c1], "the joined form of pour-over")
            let split = SearchQueryPlan.WordLookup(words: ["coffeepot"], stemKey: "coffeepot", prefix: nil, split: .init(first: "coffee", second: "pot"))
            XCTAssertEqual(try candidates([split]), [c2], "both words of the split")
            let po = SearchQueryPlan.WordLookup(words: ["po"], stemKey: "po", prefix: "po", split: nil)
            XCTAssertEqual(try candidates([coffee, po]), [c1, c2], "every lookup: coffee and a word beginning with po")
            let brand = SearchQueryPlan.WordLookup(words: ["stride"], stemKey: "stride", prefix: nil, split: nil)
            let sku = SearchQueryPlan.WordLookup(words: ["s1"], stemKey: "s1", prefix: nil, split: nil)
            XCTAssertEqual(try candidates([brand, sku]), [s1], "the brand and the SKU are indexed")
            let trail = SearchQueryPlan.WordLookup(words: ["trail"], stemKey: "trail", prefix: nil, split: nil)
            XCTAssertEqual(try candidates([trail]), [s1], "the description is indexed")
            XCTAssertEqual(try candidates([]), [s1, s2, c1, c2, c3], "no lookups: every live product")
            XCTAssertEqual(try transaction.searchCandidateCount(lookups: [], filters: none), 5)
            let missing = SearchQueryPlan.WordLookup(words: ["tea"], stemKey: "tea", prefix: nil, split: nil)
            XCTAssertEqual(try candidates([coffee, missing]), [])
            XCTAssertEqual(try transaction.searchCandidateCount(lookups: [coffee, missing], filters: none), 0)
        }
    }

    /// Common words are read from the first products in catalog order (a leading window, grown
    /// when it holds too few) and rare ones through the GIN index: either way the first `limit`
    /// matches, in catalog order, and the same count, whatever the limit, filter or word.
    func test_candidates_commonAndRareWords_anyLimitAndFilter_areTheFirstMatchesInCatalogOrder() throws {
        // 600 products: `common` in every second, `sparse` in every 97th, `rare` in the last two,
        // `late` only in names after the 500th; categories alternate.
        let rows = (0..<600).map { i in
            var words: [String] = ["item"]
            if i.isMultiple(of: 2) { words.append("common") }
            if i.isMultiple(of: 97) { words.append("sparse") }
            if i >= 598 { words.append("rare") }
            let name = (i >= 500 && i.isMultiple(of: 3) ? "Late " : "") + "Thing \(i)"
            return "P-\(String(format: "%04d", i)),\(name),\(words.joined(separator: " ")),\(i.isMultiple(of: 3) ? "tools" : "garden"),100,USD,1,,,"
        }
        try importCSV(rows.joined(separator: "\n"))
        let productsInOrder = try admin.query("SELECT sku, seq FROM products ORDER BY seq", []) { ($0.text(0), $0.int64(1)) }
        XCTAssertEqual(productsInOrder.count, 600)
        func expected(_ word: String, category: String?) -> [Int64] {
            productsInOrder.compactMap { sku, seq -> Int64? in
                let i = Int(sku.dropFirst(2))!
                let has = switch word {
                case "common": i.isMultiple(of: 2)
                case "sparse": i.isMultiple(of: 97)
                case "rare": i >= 598
                case "^late": i >= 500 && i.isMultiple(of: 3)
                default: true
                }
                let inCategory = category.map { $0 == (i.isMultiple(of: 3) ? "tools" : "garden") } ?? true
                return has && inCategory ? seq : nil
            }
        }
        try read { transaction in
            for word in ["common", "sparse", "rare", "late", "item"] {
                var lookup = try Self.lookup(word, in: transaction)
                let key = word == "late" ? "^late" : word
                if word == "late" { lookup = SearchIndexTerms.nameLookup(lookup) }
                for category in [nil, "tools"] as [String?] {
                    let filters = ProductSearchFilters(categories: category.map { [$0] } ?? [])
                    let all = expected(key, category: category)
                    for limit in [1, 2, 7, 50, 301, 1000] {
                        XCTAssertEqual(try transaction.searchCandidates(lookups: [lookup], filters: filters, limit: limit), Array(all.prefix(limit)),
                                       "\(word), \(category ?? "any category"), limit \(limit)")
                        XCTAssertEqual(try transaction.searchCandidateCount(lookups: [lookup], filters: filters, atMost: limit), min(limit, all.count),
                                       "count of \(word), \(category ?? "any category"), at most \(limit)")
                    }
                    XCTAssertEqual(try transaction.searchCandidateCount(lookups: [lookup], filters: filters), all.count, "\(word): every match")
                }
            }
        }
    }

    func test_candidates_eachFilter_onTheProductsVariants() throws {
        try importCSV("""
            H-S,Hoodie,,apparel,4500,USD,0,hoodie,Acme,
            H-M,,,,9000,,2,hoodie,,
            T-1,Tee,,apparel,1500,USD,0,,Zeta,
            M-1,Mug,,kitchen,900,USD,5,,Acme,
            A-1,Apron,,kitchen,2000,USD,1,,Acme,archived
            """)
        let (hoodie, tee, mug) = (try seq(of: "H-S"), try seq(of: "T-1"), try seq(of: "M-1"))
        try read { transaction in
            func candidates(_ filters: ProductSearchFilters) throws -> [Int64] {
                let found = try transaction.searchCandidates(lookups: [], filters: filters, limit: 50)
                XCTAssertEqual(try transaction.searchCandidateCount(lookups: [], filters: filters), found.count)
                return found
            }
            XCTAssertEqual(try candidates(ProductSearchFilters()), [hoodie, tee, mug], "the archived apron is no candidate")
            XCTAssertEqual(try candidates(ProductSearchFilters(categories: ["kitchen"])), [mug])
            XCTAssertEqual(try candidates(ProductSearchFilters(categories: ["kitchen", "apparel"])), [hoodie, tee, mug])
            XCTAssertEqual(try candidates(ProductSearchFilters(brands: ["Acme"])), [hoodie, mug])
            XCTAssertEqual(try candidates(ProductSearchFilters(brands: ["acme"])), [], "brands compare exactly")
            XCTAssertEqual(try candidates(ProductSearchFilters(priceMinCents: 5000)), [hoodie], "its second variant costs 9000")
            XCTAssertEqual(try candidates(ProductSearchFilters(priceMaxCents: 1500)), [tee, mug])
            XCTAssertEqual(try candidates(ProductSearchFilters(priceMinCents: 5000, priceMaxCents: 8000)), [],
                           "one variant must be within both bounds: 4500 and 9000 are not")
            XCTAssertEqual(try candidates(ProductSearchFilters(priceMinCents: 4500, priceMaxCents: 4500)), [hoodie])
            XCTAssertEqual(try candidates(ProductSearchFilters(inStock: true)), [hoodie, mug], "the hoodie's M has 2")
            XCTAssertEqual(try candidates(ProductSearchFilters(inStock: false)), [tee])
            XCTAssertEqual(try candidates(ProductSearchFilters(categories: ["apparel"], brands: ["Acme"], priceMaxCents: 5000, inStock: true)), [hoodie])
            let hoodieWord = SearchQueryPlan.WordLookup(words: ["hoodie"], stemKey: "hoodie", prefix: nil, split: nil)
            XCTAssertEqual(try transaction.searchCandidates(lookups: [hoodieWord], filters: ProductSearchFilters(inStock: false), limit: 5), [])
            XCTAssertEqual(try transaction.searchCandidateCount(lookups: [hoodieWord], filters: ProductSearchFilters(brands: ["Acme"])), 1)
        }
    }

    /// A hyphenated chain written together is one word of any length; the index holds it cut
    /// (`PostgreSQLSearchTerms.maxLexemeBytes`), so the import succeeds and the word is found.
    func test_wordLongerThanALexemeMayBe_isIndexedCut_andFound() throws {
        let chain = Array(repeating: "ab", count: 700).joined(separator: "-")
        try importCSV("L-1,Long Chain,\(chain),misc,100,USD,1,,,\nL-2,Other,,misc,100,USD,1,,,\n")
        let word = String(repeating: "ab", count: 700)
        try read { transaction in
            let lookup = SearchQueryPlan.WordLookup(words: [word], stemKey: word, prefix: nil, split: nil)
            XCTAssertEqual(try transaction.searchCandidates(lookups: [lookup], filters: ProductSearchFilters(), limit: 5), [try seq(of: "L-1")])
            XCTAssertEqual(try transaction.documentFrequency(of: word), 1)
            XCTAssertEqual(try Self.words(of: transaction, beginningWith: "abab"), [String(repeating: "ab", count: 500)])
        }
    }

    // MARK: - Variants and entries

    func test_variantJoiningLater_itsSKUIsIndexed_andTheEntryHoldsEveryVariant() throws {
        try importCSV("H-S,Hoodie,Warm,apparel,4500,USD,0,hoodie,Acme,\nH-M,,,,4700,,0,hoodie,,\n")
        try importCSV("H-XL,,,,5200,,4,hoodie,,\n")
        let hoodie = try seq(of: "H-S")
        try read { transaction in
            let xl = SearchQueryPlan.WordLookup(words: ["hxl"], stemKey: "hxl", prefix: nil, split: nil)
            XCTAssertEqual(try transaction.searchCandidates(lookups: [xl], filters: ProductSearchFilters(), limit: 5), [hoodie])
            XCTAssertEqual(try transaction.documentFrequency(of: "xl"), 1)
            XCTAssertEqual(try transaction.documentFrequency(of: "h"), 1, "a word of three SKUs counts its product once")
            let entries = try transaction.searchEntries(seqs: [hoodie, 999_999])
            XCTAssertEqual(entries.count, 1, "a position that is no live product is skipped")
            guard let entry = entries.first else { return }
            XCTAssertEqual(entry.seq, hoodie)
            XCTAssertEqual(entry.first.sku, "H-S")
            XCTAssertEqual(entry.document.sku, "H-S H-M H-XL")
            XCTAssertEqual(entry.document.name, "Hoodie")
            XCTAssertEqual(entry.document.description, "Warm")
            XCTAssertEqual(entry.document.handle, "hoodie")
            XCTAssertEqual(entry.document.brand, "Acme")
            XCTAssertEqual([entry.priceMinCents, entry.priceMaxCents], [4500, 5200])
            XCTAssertTrue(entry.inStock)
        }
        try assertVocabularyIsLiveProducts()
    }

    func test_entries_inTheOrderAsked() throws {
        try importCSV("A-1,Alpha,,x,100,USD,0,,,\nB-1,Beta,,x,200,USD,1,,,\n")
        let (a, b) = (try seq(of: "A-1"), try seq(of: "B-1"))
        let entries = try read { try $0.searchEntries(seqs: [b, a]) }
        XCTAssertEqual(entries.map(\.seq), [b, a])
        XCTAssertEqual(entries.map(\.inStock), [true, false])
    }

    // MARK: - Migration

    /// A database from the build before version 10: its products get their lexemes and the
    /// vocabulary its counts, live products only, in the migration.
    func test_open_databaseFromVersion8_indexesItsLiveProducts() throws {
        let other = try PostgreSQLTestDatabase()
        defer { other.drop() }
        let connection = try Self.connection(to: other, migratedTo: 8)
        try connection.execute("UPDATE products SET archived = true, status = 'archived' WHERE sku = 'SKU-0002'; COMMIT")

        let migrated = try PostgreSQLShopStore.open(uri: other.uri, poolSize: 1)
        XCTAssertEqual(try connection.query("SELECT max(version) FROM shop_schema_version", []) { $0.int(0) }, [PostgreSQLSchema.latestVersion])
        let live = try connection.query("SELECT sku FROM products WHERE NOT archived AND seq = product_seq", []) { $0.text(0) }
        XCTAssertEqual(live.count, CatalogSeed.productCount - 1)
        let expected = try expectedVocabulary(live, on: connection)
        XCTAssertFalse(expected.isEmpty)
        let found = try migrated.read(interruption: nil) { transaction in
            try Self.vocabulary(of: try XCTUnwrap(transaction as? PostgreSQLShopTransaction))
        }
        XCTAssertEqual(found, expected)
        XCTAssertEqual(try connection.query("SELECT count(*) FROM pg_indexes WHERE indexname = 'products_search_words'", []) { $0.int(0) }, [1])
    }

    /// A database from the build before version 12 (no name terms): every product gets its marked
    /// name lexemes, the vocabulary stays as it was, and a name lookup finds the products.
    func test_open_databaseFromVersion11_addsNameTerms_keepingTheVocabulary() throws {
        let other = try PostgreSQLTestDatabase()
        defer { other.drop() }
        let connection = try Self.connection(to: other, migratedTo: 11)
        // Version 11's lexemes: none marked.
        try connection.execute("""
            UPDATE products SET search_words = ts_delete(search_words, ARRAY(
                SELECT l FROM unnest(tsvector_to_array(search_words)) AS l WHERE l LIKE '^%' OR l LIKE '~^%'));
            COMMIT
            """)
        let markedCount = "SELECT count(*) FROM products, unnest(tsvector_to_array(search_words)) AS l WHERE l LIKE '^%'"
        XCTAssertEqual(try connection.query(markedCount, []) { $0.int(0) }, [0])
        let counts = "SELECT word, products FROM search_word_counts ORDER BY word"
        let vocabularyBefore = try connection.query(counts, []) { "\($0.text(0)) \($0.int(1))" }

        _ = try PostgreSQLShopStore.open(uri: other.uri, poolSize: 1)
        XCTAssertEqual(try connection.query("SELECT max(version) FROM shop_schema_version", []) { $0.int(0) }, [PostgreSQLSchema.latestVersion])
        let namedRoast = try connection.query("SELECT count(*) FROM products WHERE search_words @@ $1::tsquery", ["'^roast'"]) { $0.int(0) }
        let names = try connection.query("SELECT name FROM products WHERE seq = product_seq", []) { $0.text(0) }
        let roastInName = names.filter { name in SearchAnalyzer().tokens(in: name, field: .name).contains { $0.word == "roast" } }
        XCTAssertEqual(namedRoast, [roastInName.count])
        XCTAssertGreaterThan(namedRoast.first ?? 0, 0)
        XCTAssertEqual(try connection.query(counts, []) { "\($0.text(0)) \($0.int(1))" }, vocabularyBefore, "name terms are not words")
        XCTAssertEqual(try connection.query("SELECT count(*) FROM pg_indexes WHERE indexname = 'products_search_words'", []) { $0.int(0) }, [1])
    }

    // MARK: - Helpers

    /// A connection to `database`, inside a transaction left open, in which the schema is at
    /// `version` (the migrations up to it applied, with the demo catalog): the caller changes what
    /// that version's build would have left, then commits.
    private static func connection(to database: PostgreSQLTestDatabase, migratedTo version: Int) throws -> PostgreSQLConnection {
        let connection = try PostgreSQLConnection(uri: database.uri)
        try connection.execute("BEGIN; CREATE TABLE shop_schema_version (version INTEGER NOT NULL)")
        for migration in PostgreSQLSchema.migrations where migration.version <= version {
            try migration.apply(connection, .demoCatalog)
        }
        try connection.run("INSERT INTO shop_schema_version (version) VALUES ($1)", [version])
        return connection
    }

    private func importCSV(_ rows: String, replace: Bool = false) throws {
        let text = Self.header + rows + (rows.hasSuffix("\n") ? "" : "\n")
        let outcome = try service.importFile(text, options: CatalogImportOptions(replace: replace))
        XCTAssertEqual(outcome.errors, [])
        XCTAssertTrue(outcome.outcome.committed)
    }

    private func read<T>(_ body: (PostgreSQLShopTransaction) throws -> T) throws -> T {
        try store.read(interruption: nil) { transaction in try body(try XCTUnwrap(transaction as? PostgreSQLShopTransaction)) }
    }

    private func seq(of sku: String) throws -> Int64 {
        try XCTUnwrap(try admin.query("SELECT product_seq FROM products WHERE sku = $1", [sku]) { $0.int64(0) }.first)
    }

    /// The lookup of `text`'s only word, planned against the store's vocabulary.
    private static func lookup(_ text: String, in transaction: PostgreSQLShopTransaction) throws -> SearchQueryPlan.WordLookup {
        try SearchQueryPlan(query: SearchQuery(text), vocabulary: transaction).lookup(forWord: 0)
    }

    private static func words(of transaction: PostgreSQLShopTransaction, beginningWith prefix: String) throws -> [String] {
        var words: [String] = []
        try transaction.enumerateWords(from: prefix, to: SearchWordOrder.upperBound(ofPrefix: prefix)) { words.append($0); return true }
        return words
    }

    /// Every word of the vocabulary with its count, enumerated (checked ascending) and asked for.
    private static func vocabulary(of transaction: PostgreSQLShopTransaction) throws -> [String: Int] {
        var words: [String] = []
        try transaction.enumerateWords(from: "", to: nil) { words.append($0); return true }
        XCTAssertEqual(words, words.sorted(by: SearchWordOrder.precedes), "ascending UTF-8 byte order")
        XCTAssertEqual(Set(words).count, words.count, "each word once")
        var counts: [String: Int] = [:]
        for word in words { counts[word] = try transaction.documentFrequency(of: word) }
        return counts
    }

    private func vocabulary() throws -> [String: Int] {
        try read(Self.vocabulary(of:))
    }

    /// What the vocabulary must be: each word of the analyzer's tokens of the products of
    /// `skus` (first variants), counted once per product, read from the database as it is.
    private func expectedVocabulary(_ skus: [String], on connection: PostgreSQLConnection? = nil) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for sku in skus {
            let document = try XCTUnwrap(try (connection ?? admin).query(
                """
                SELECT p.name, p.brand, p.category, p.description, p.handle,
                       (SELECT string_agg(v.sku, ' ' ORDER BY v.seq) FROM products v WHERE v.handle = p.handle)
                FROM products p WHERE p.sku = $1
                """, [sku]
            ) { SearchDocument(name: $0.text(0), brand: $0.text(1), category: $0.text(2), description: $0.text(3), sku: $0.text(5), handle: $0.text(4)) }.first)
            for word in Set(SearchAnalyzer().tokens(of: document).map(\.word)) { counts[word, default: 0] += 1 }
        }
        return counts
    }

    private func assertVocabularyIsLiveProducts(file: StaticString = #filePath, line: UInt = #line) throws {
        let live = try admin.query("SELECT sku FROM products WHERE NOT archived AND seq = product_seq", []) { $0.text(0) }
        XCTAssertEqual(try vocabulary(), try expectedVocabulary(live), file: file, line: line)
    }
}
