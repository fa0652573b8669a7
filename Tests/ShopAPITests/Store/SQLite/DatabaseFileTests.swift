import CSQLite
import XCTest
@testable import ShopAPI

/// Behaviour that needs a real database file: restarts, several instances, migrations.
final class DatabaseFileTests: XCTestCase {
    private var database: TemporaryDatabase!

    override func setUp() {
        database = TemporaryDatabase()
    }

    override func tearDown() {
        database.remove()
    }

    func test_placeOrder_sameIdempotencyKeyAfterReopening_returnsSameOrderWithoutSecondDecrement() throws {
        let original: Order
        let stockAfterOrder: Int
        do {
            let service = try ShopService.open(path: database.path)
            _ = try service.addToCartAndWait("c1", "SKU-0009", 3).get()
            original = try service.placeOrderAndWait("c1", key: "retry-me").get()
            stockAfterOrder = try service.available("SKU-0009")
        }
        let reopened = try ShopService.open(path: database.path)
        _ = try reopened.addToCartAndWait("c1", "SKU-0009", 1).get()
        XCTAssertEqual(try reopened.placeOrderAndWait("c1", key: "retry-me").get(), original)
        XCTAssertEqual(try reopened.available("SKU-0009"), stockAfterOrder)
        XCTAssertEqual(try reopened.order(id: original.orderId, interruption: nil), original)
        XCTAssertEqual(reopened.placeOrderAndWait("c2", key: "retry-me").failure, .idempotencyConflict(key: "retry-me", cartId: "c2"))
    }

    func test_twoServicesOnOneFile_concurrentOrders_neverOversell() throws {
        let first = try ShopService.open(path: database.path)
        let second = try ShopService.open(path: database.path)
        try first.drainStock(of: "SKU-0011", leaving: 10)
        XCTAssertEqual(try second.available("SKU-0011"), 10, "the second instance sees the first one's commit")
        let results = try placeConcurrently(count: 40, sku: "SKU-0011", on: [first, second])
        XCTAssertEqual(results.filter { (try? $0.get()) != nil }.count, 10)
        XCTAssertEqual(results.compactMap(\.failure).filter { if case .outOfStock = $0 { true } else { false } }.count, 30)
        XCTAssertEqual(try first.available("SKU-0011"), 0)
        XCTAssertEqual(try second.available("SKU-0011"), 0)
        XCTAssertEqual(try first.listOrders(cartId: nil, cursor: nil, limit: 200, interruption: nil).items.count, 11)
    }

    func test_twoServicesOnOneFile_sameKeyPlacedFromBoth_createsOneOrder() throws {
        let first = try ShopService.open(path: database.path)
        let second = try ShopService.open(path: database.path)
        _ = try first.addToCartAndWait("shared", "SKU-0010", 1).get()
        let before = try first.available("SKU-0010")
        let a = ResultBox<Order>(), b = ResultBox<Order>()
        first.placeOrder(cartId: "shared", idempotencyKey: "once", interruption: nil) { a.record($0) }
        second.placeOrder(cartId: "shared", idempotencyKey: "once", interruption: nil) { b.record($0) }
        XCTAssertTrue(a.wait() && b.wait())
        XCTAssertEqual(try a.result?.get(), try b.result?.get())
        XCTAssertEqual(try first.available("SKU-0010"), before - 1)
    }

    func test_open_createsMissingDirectories_setsWALAndSchemaVersion() throws {
        _ = try ShopService.open(path: database.path)
        XCTAssertTrue(FileManager.default.fileExists(atPath: database.path))
        let connection = try SQLiteConnection(path: database.path, flags: SQLITE_OPEN_READONLY)
        XCTAssertEqual(try connection.query("PRAGMA journal_mode", []) { $0.text(0) }, ["wal"])
        XCTAssertEqual(try connection.query("PRAGMA user_version", []) { $0.int(0) }, [SQLiteSchema.latestVersion])
    }

    func test_writerConnection_usesWALWithFullSynchronous_soCommittedOrdersSurviveAKill() throws {
        _ = try ShopService.open(path: database.path)
        let writer = try SQLiteConnection.open(path: database.path, as: .writer)
        XCTAssertEqual(try writer.query("PRAGMA journal_mode", []) { $0.text(0) }, ["wal"])
        XCTAssertEqual(try writer.query("PRAGMA synchronous", []) { $0.int(0) }, [2], "2 = FULL")
        XCTAssertEqual(try writer.query("PRAGMA busy_timeout", []) { $0.int(0) }, [5000])
    }

    func test_open_databaseFromNewerBuild_failsWithStorageError() throws {
        _ = try ShopService.open(path: database.path)
        let connection = try SQLiteConnection(path: database.path, flags: SQLITE_OPEN_READWRITE)
        try connection.execute("PRAGMA user_version = 99")
        XCTAssertThrowsError(try ShopService.open(path: database.path)) { error in
            guard case let .storage(message)? = error as? ShopError else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("newer"), message)
        }
    }

    /// A file from the build before version 4 (no ledger, no cancellation): its orders survive the
    /// migration, placed, and can be cancelled; the ledger starts with the first change after it.
    func test_open_fileFromVersion3_migratesIt_keepingOrders_andCancelsThem() throws {
        let placed: Order
        do {
            let service = try ShopService.open(path: database.path)
            _ = try service.addToCartAndWait("c1", "SKU-0009", 3).get()
            placed = try service.placeOrderAndWait("c1", key: "k").get()
        }
        let connection = try SQLiteConnection(path: database.path, flags: SQLITE_OPEN_READWRITE)
        try connection.execute("""
            \(Self.undoVersion6)
            DROP TABLE stock_ledger;
            ALTER TABLE orders DROP COLUMN cancelled_at;
            ALTER TABLE orders DROP COLUMN cancel_reason;
            PRAGMA user_version = 3;
            """)
        let service = try ShopService.open(path: database.path)
        XCTAssertEqual(try connection.query("PRAGMA user_version", []) { $0.int(0) }, [SQLiteSchema.latestVersion])
        XCTAssertEqual(try service.order(id: placed.orderId, interruption: nil), placed)
        XCTAssertEqual(try service.ledger(), [])
        let level = try service.available("SKU-0009")
        let cancelled = try service.cancelOrderAndWait(placed.orderId).get()
        XCTAssertEqual(cancelled.status, "cancelled")
        XCTAssertEqual(try service.available("SKU-0009"), level + 3)
        try assertLedgerInvariant(service, skus: ["SKU-0009"], levelsBefore: ["SKU-0009": level])
    }

    /// A file from the build before version 5 (no customers), whose cart and order ids may hold a
    /// U+001F: they stay of no customer, so no customer's session sees them, and a session
    /// without a customer still finds them under the ids it gave.
    func test_open_fileFromVersion4_keysHoldingTheSeparator_stayOfNoCustomer() throws {
        let cartId = "alice\u{1F}c-1"
        let placed: Order
        do {
            let service = try ShopService.open(path: database.path)
            _ = try service.addToCartAndWait(cartId, "SKU-0009", 3).get()
            placed = try service.placeOrderAndWait(cartId, key: "alice\u{1F}k").get()
            _ = try service.addToCartAndWait(cartId, "SKU-0002", 1).get()
        }
        XCTAssertNil(placed.customer)
        XCTAssertEqual(placed.cartId, cartId)
        // As an earlier build stored them: the keys as the client gave them.
        let connection = try SQLiteConnection(path: database.path, flags: SQLITE_OPEN_READWRITE)
        try connection.execute("""
            \(Self.undoVersion6)
            UPDATE cart_lines SET cart_id = substr(cart_id, 2);
            UPDATE orders SET cart_id = substr(cart_id, 2), idempotency_key = substr(idempotency_key, 2);
            PRAGMA user_version = 4;
            """)
        XCTAssertEqual(try connection.query("SELECT cart_id FROM orders", []) { $0.text(0) }, [cartId])
        let service = try ShopService.open(path: database.path)
        XCTAssertEqual(try connection.query("PRAGMA user_version", []) { $0.int(0) }, [SQLiteSchema.latestVersion])

        XCTAssertEqual(try service.order(id: placed.orderId, interruption: nil), placed)
        XCTAssertEqual(try service.cart(id: cartId, interruption: nil).lines.map(\.sku), ["SKU-0002"])
        XCTAssertEqual(try service.placeOrderAndWait(cartId, key: "alice\u{1F}k").get(), placed, "its key still answers its order")
        XCTAssertThrowsError(try service.order(id: placed.orderId, customer: "alice", interruption: nil))
        XCTAssertEqual(try service.listOrders(cartId: nil, customer: "alice", cursor: nil, limit: 10, interruption: nil).items, [])
        XCTAssertEqual(try service.cart(id: "c-1", customer: "alice", interruption: nil).lines, [])
    }

    /// What version 6 (products with variants) added, taken away again: with it, a file of this
    /// build is as a build of version 5 left it (the products' rows, seq and archived as they were).
    /// Back to the search index of versions 3…6: `product_words` of names and categories, and a
    /// vocabulary that keeps every word ever indexed (here one no product has any more); and
    /// without version 9's synonyms.
    private static let undoVersion8 = """
        DROP TABLE search_synonyms;
        DROP TABLE search_documents;
        DROP TABLE search_vocabulary;
        CREATE TABLE search_vocabulary (word TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID;
        INSERT INTO search_vocabulary (word) VALUES ('staleword');
        DROP TABLE product_words;
        CREATE VIRTUAL TABLE product_words USING fts5(words, content = '', detail = none, tokenize = 'ascii');
        """

    /// A file from the build before version 8 (search over names and categories only): the index
    /// is rebuilt from the live products, every field and SKU searchable, the vocabulary counting
    /// live products only; an archived product stays out.
    func test_open_fileFromVersion6_rebuildsTheSearchIndex_fromLiveProductsOnly() throws {
        let searchedBefore: [String]
        do {
            let service = try ShopService.open(path: database.path)
            XCTAssertEqual(try service.archiveProductsAndWait(["SKU-0002"]).get(), ProductsArchived(archived: 1))
            searchedBefore = try service.searchItems("roast").map(\.sku)
        }
        XCTAssertFalse(searchedBefore.isEmpty)
        let connection = try SQLiteConnection(path: database.path, flags: SQLITE_OPEN_READWRITE)
        try connection.execute("""
            \(Self.undoVersion8)
            PRAGMA user_version = 6;
            """)
        let service = try ShopService.open(path: database.path)
        XCTAssertEqual(try connection.query("PRAGMA user_version", []) { $0.int(0) }, [SQLiteSchema.latestVersion])
        XCTAssertEqual(try service.searchItems("roast").map(\.sku), searchedBefore)
        XCTAssertEqual(try service.searchItems("SKU-0009").first?.sku, "SKU-0009")
        XCTAssertFalse(try service.searchItems("SKU-0002").contains { $0.sku == "SKU-0002" }, "archived")
        XCTAssertEqual(try connection.query("SELECT count(*) FROM search_vocabulary WHERE word = 'staleword'", []) { $0.int(0) }, [0])
        let live = try service.allProducts().count
        XCTAssertEqual(try connection.query("SELECT count(*) FROM search_documents", []) { $0.int(0) }, [live])
        XCTAssertEqual(try connection.query("SELECT products FROM search_vocabulary WHERE word = 'usd'", []) { $0.int(0) }, [], "only product text")
    }

    private static let undoVersion6 = """
        \(undoVersion8)
        DROP INDEX products_by_handle;
        DROP INDEX products_live_by_category;
        CREATE INDEX products_live_by_category ON products (category, sku) WHERE archived = 0;
        ALTER TABLE products DROP COLUMN handle;
        ALTER TABLE products DROP COLUMN product_seq;
        ALTER TABLE products DROP COLUMN brand;
        ALTER TABLE products DROP COLUMN status;
        ALTER TABLE products DROP COLUMN option_names;
        ALTER TABLE products DROP COLUMN option_values;
        """

    /// A file from the build before version 6 (no variants): each SKU becomes a product whose
    /// handle is its SKU, with one variant and no options, active, or archived if it was; the
    /// catalog lists, searches and exports as before, and an archived one stays out.
    func test_open_fileFromVersion5_eachSkuBecomesAProductOfOneVariant_archivedStaysArchived() throws {
        let listedBefore: [Product]
        do {
            let service = try ShopService.open(path: database.path)
            XCTAssertEqual(try service.archiveProductsAndWait(["SKU-0002"]).get(), ProductsArchived(archived: 1))
            listedBefore = try service.allProducts()
        }
        let connection = try SQLiteConnection(path: database.path, flags: SQLITE_OPEN_READWRITE)
        try connection.execute("\(Self.undoVersion6) PRAGMA user_version = 5;")
        XCTAssertEqual(try connection.query("SELECT count(*) FROM pragma_table_info('products') WHERE name = 'handle'", []) { $0.int(0) }, [0])
        let service = try ShopService.open(path: database.path)
        XCTAssertEqual(try connection.query("PRAGMA user_version", []) { $0.int(0) }, [SQLiteSchema.latestVersion])

        XCTAssertEqual(try service.allProducts(), listedBefore, "the same products, in the same order")
        XCTAssertEqual(listedBefore.count, 239)
        XCTAssertFalse(listedBefore.contains { $0.sku == "SKU-0002" })
        let first = try service.product(sku: "SKU-0001", interruption: nil)
        XCTAssertEqual(first.handle, "SKU-0001")
        XCTAssertEqual(first.options, [])
        let product = try service.catalogProduct(handle: "SKU-0001", interruption: nil)
        XCTAssertEqual(product.variants.map(\.sku), ["SKU-0001"])
        XCTAssertEqual(product.optionNames, [])
        XCTAssertThrowsError(try service.catalogProduct(handle: "SKU-0002", interruption: nil))
        let page = try service.listCatalog(cursor: nil, limit: 3, category: nil, interruption: nil)
        XCTAssertEqual(page.items.map(\.variants.count), [1, 1, 1])
        XCTAssertEqual(page.items.map(\.handle), page.items.map(\.sku))
        var exported: [(String, ProductStatus)] = []
        try service.exportProducts { product, status, _ in exported.append((product.sku, status)) }
        XCTAssertEqual(exported.count, 239)
        XCTAssertTrue(exported.allSatisfy { $0.1 == .active })
        XCTAssertEqual(try connection.query("SELECT status FROM products WHERE sku = 'SKU-0002'", []) { $0.text(0) }, ["archived"])
    }

    /// A file from the build before version 7 (`products_by_handle` over every row): the index
    /// becomes partial (no row for a first variant named by its own SKU), and every variant is
    /// still found by handle: listed, searched, by `catalog.product`, archived with its product.
    func test_open_fileFromVersion6_handleIndexBecomesPartial_everyVariantStillFound() throws {
        do {
            let service = try ShopService.open(path: database.path)
            let imported = try service.importFile("sku,name,category,priceCents,stock,handle,option1Name,option1Value\nCAP-RED,Cap,hats,900,0,cap,Colour,Red\ncap,,,950,2,cap,,Blue\n")
            XCTAssertEqual(imported.errors, [])
        }
        let connection = try SQLiteConnection(path: database.path, flags: SQLITE_OPEN_READWRITE)
        try connection.execute("""
            \(Self.undoVersion8)
            DROP INDEX products_by_handle; CREATE INDEX products_by_handle ON products (handle, seq); PRAGMA user_version = 6;
            """)
        let service = try ShopService.open(path: database.path)
        XCTAssertEqual(try connection.query("PRAGMA user_version", []) { $0.int(0) }, [SQLiteSchema.latestVersion])
        let indexed = try connection.query("SELECT count(*) FROM products INDEXED BY products_by_handle WHERE \(SQLiteProductHandle.indexedRows())", []) { $0.int(0) }
        XCTAssertEqual(indexed, [2], "the caps: the Red (a first variant not named by its SKU) and the Blue (not a first variant); no demo product")
        XCTAssertEqual(try connection.query("SELECT count(*) FROM products", []) { $0.int(0) }, [242])

        let item = try service.searchProducts(ProductSearchRequest(query: "cap", limit: 10), interruption: nil).items.first { $0.handle == "cap" }
        XCTAssertEqual(item?.variants.map(\.sku), ["CAP-RED", "cap"])
        XCTAssertEqual(item?.inStock, true)
        XCTAssertEqual(try service.catalogProduct(handle: "cap", interruption: nil).variants.map(\.available), [0, 2])
        XCTAssertEqual(try service.catalogProduct(handle: "SKU-0001", interruption: nil).variants.map(\.sku), ["SKU-0001"])
        XCTAssertEqual(try service.archiveProductsAndWait(["CAP-RED"]).get(), ProductsArchived(archived: 1))
        XCTAssertThrowsError(try service.product(sku: "cap", interruption: nil), "the product's other variant archived with it")
    }

    /// A file from the build before version 10 (no name terms): its index is filled again, each
    /// live product under its marked name words too, the vocabulary unchanged.
    func test_open_fileFromVersion9_addsNameTerms_keepingTheVocabulary() throws {
        do { _ = try ShopService.open(path: database.path) }
        let connection = try SQLiteConnection(path: database.path, flags: SQLITE_OPEN_READWRITE)
        let documents = try connection.query("SELECT product_seq, words FROM search_documents", []) { ($0.int64(0), $0.text(1)) }
        try connection.execute("BEGIN")
        for (seq, words) in documents {
            let unmarked = words.split(separator: " ").filter { !$0.hasPrefix("^") }.joined(separator: " ")
            try connection.run("UPDATE search_documents SET words = ?1 WHERE product_seq = ?2", unmarked, seq)
        }
        try connection.execute("""
            DROP TABLE product_words;
            CREATE VIRTUAL TABLE product_words USING fts5(terms, content = '', detail = none, tokenize = "ascii tokenchars '.'", prefix = '2 3');
            INSERT INTO product_words (rowid, terms) SELECT product_seq, words FROM search_documents;
            PRAGMA user_version = 9;
            COMMIT;
            """)
        let counts = "SELECT word, products FROM search_vocabulary ORDER BY word"
        let vocabularyBefore = try connection.query(counts, []) { "\($0.text(0)) \($0.int(1))" }
        XCTAssertEqual(try connection.query("SELECT count(*) FROM search_documents WHERE words LIKE '%^%'", []) { $0.int(0) }, [0])

        _ = try ShopService.open(path: database.path)
        XCTAssertEqual(try connection.query("PRAGMA user_version", []) { $0.int(0) }, [SQLiteSchema.latestVersion])
        let names = try connection.query("SELECT name FROM products WHERE archived = 0 AND seq = product_seq", []) { $0.text(0) }
        let roastInName = names.filter { name in SearchAnalyzer().tokens(in: name, field: .name).contains { $0.word == "roast" } }
        XCTAssertGreaterThan(roastInName.count, 0)
        XCTAssertEqual(try connection.query("SELECT count(*) FROM product_words WHERE product_words MATCH '\"^roast\"'", []) { $0.int(0) },
                       [roastInName.count])
        XCTAssertEqual(try connection.query(counts, []) { "\($0.text(0)) \($0.int(1))" }, vocabularyBefore, "name terms are not words")
    }

    /// FTS5 keeps `pendingChangesSize` of changes in memory (a large import merges less): set
    /// when the index is made, and on opening a file whose index has another size (FTS5's default).
    func test_open_setsTheSearchIndexPendingChangesSize_onANewFileAndOnAnOlderOne() throws {
        let hashSize = "SELECT v FROM product_words_config WHERE k = 'hashsize'"
        do { _ = try ShopService.open(path: database.path) }
        let connection = try SQLiteConnection(path: database.path, flags: SQLITE_OPEN_READWRITE)
        XCTAssertEqual(try connection.query(hashSize, []) { $0.int(0) }, [SQLiteSearchIndex.pendingChangesSize])
        try connection.execute("DELETE FROM product_words_config WHERE k = 'hashsize'")
        XCTAssertEqual(try connection.query(hashSize, []) { $0.int(0) }, [], "as a file made before the setting")

        let reopened = try ShopService.open(path: database.path)
        XCTAssertEqual(try connection.query(hashSize, []) { $0.int(0) }, [SQLiteSearchIndex.pendingChangesSize])
        XCTAssertFalse(try reopened.searchProducts(ProductSearchRequest(query: "roast", limit: 10), interruption: nil).items.isEmpty, "the index still answers")
    }

    func test_open_unwritableLocation_failsWithStorageError() {
        XCTAssertThrowsError(try ShopService.open(path: "/proc/shop-rpc-test/shop.sqlite")) {
            guard case .storage? = $0 as? ShopError else { return XCTFail("\($0)") }
        }
    }

    func test_defaultDatabasePath_endsInShopRpcDirectory() {
        XCTAssertTrue(ShopService.defaultDatabasePath.hasSuffix("/shop-rpc/shop.sqlite"))
        XCTAssertTrue(ShopService.defaultDatabasePath.hasPrefix("/"))
    }
}
