import CSQLite

/// The database schema as an ordered list of migrations, versioned by `PRAGMA user_version`.
///
/// To change the schema, append a migration with the next version; never edit a shipped one.
/// (A migration that changes what products are found by must also rebuild the search index,
/// `SQLiteSearchIndexWriter.rebuildDocuments` and `product_words`.)
enum SQLiteSchema {
    /// One step from `version - 1` to `version`.
    struct Migration: Sendable {
        let version: Int
        let apply: @Sendable (SQLiteConnection, StoreCreation) throws -> Void
    }

    static let migrations: [Migration] = [
        Migration(version: 1) { connection, _ in try connection.execute(createTables) },
        Migration(version: 2) { connection, creation in
            if creation == .demoCatalog { try CatalogSeed.insert(into: connection) }
        },
        Migration(version: 3) { connection, _ in try catalogFiles(connection) },
        Migration(version: 4) { connection, _ in try connection.execute(cancellationAndLedger) },
        Migration(version: 5) { connection, _ in try connection.execute(keysOfNoCustomer) },
        Migration(version: 6) { connection, _ in try connection.execute(productsWithVariants) },
        Migration(version: 7) { connection, _ in try connection.execute(handlesOfVariantsOnly) },
        Migration(version: 8) { connection, _ in try searchIndexOfEveryField(connection) },
        Migration(version: 9) { connection, _ in try connection.execute(searchSynonyms) },
        Migration(version: 10) { connection, _ in try searchIndexOfNames(connection) },
    ]

    static var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Brings the database up to `latestVersion` in one `BEGIN IMMEDIATE` transaction (so two
    /// processes opening a new file at once migrate and seed it exactly once), then makes sure the
    /// search index exists. Returns how to search. `creation` says what a new database starts with.
    ///
    /// Fails if the file was written by a newer build (a higher `user_version`).
    static func migrate(_ connection: SQLiteConnection, creation: StoreCreation, allowFullTextSearch: Bool) throws -> SQLiteSearchMode {
        try connection.run("BEGIN IMMEDIATE")
        do {
            let current = try connection.query("PRAGMA user_version", []) { $0.int(0) }.first ?? 0
            guard current <= latestVersion else {
                throw SQLiteError(code: SQLITE_ERROR, message: "database schema version \(current) is newer than this build's \(latestVersion)")
            }
            for migration in migrations where migration.version > current {
                try migration.apply(connection, creation)
            }
            if current < latestVersion {
                try connection.execute("PRAGMA user_version = \(latestVersion)")
            }
            let searchMode = try SQLiteSearchIndex.prepare(connection, allowFullText: allowFullTextSearch)
            try connection.run("COMMIT")
            return searchMode
        } catch {
            connection.rollbackIfInTransaction()
            throw error
        }
    }

    /// For a store opened read-only, which cannot migrate: checks that the database is at
    /// `latestVersion` and returns how to search (without an index when it has none).
    /// - Throws: `SQLiteError` saying the file is not a shop store, or needs a migration that
    ///   opening it once without `--read-only` makes, or comes from a newer build.
    static func checkReadOnly(_ connection: SQLiteConnection, allowFullTextSearch: Bool) throws -> SQLiteSearchMode {
        let current = try connection.query("PRAGMA user_version", []) { $0.int(0) }.first ?? 0
        guard current == latestVersion else {
            let reason = current == 0 ? "it is not a shop store (an empty or foreign database)"
                : current > latestVersion ? "its schema version \(current) is newer than this build's \(latestVersion)"
                : "its schema version \(current) is older than this build's \(latestVersion); open it once read-write to migrate it"
            throw SQLiteError(code: SQLITE_ERROR, message: reason)
        }
        guard allowFullTextSearch else { return .scan }
        return try SQLiteSearchIndex.existingMode(connection) ?? .scan
    }

    // MARK: - Version 1

    private static let createTables = """
        CREATE TABLE products (
            sku TEXT PRIMARY KEY NOT NULL,
            name TEXT NOT NULL,
            description TEXT NOT NULL,
            category TEXT NOT NULL,
            price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
            currency TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX products_by_category ON products (category, sku);

        CREATE TABLE stock (
            sku TEXT PRIMARY KEY NOT NULL REFERENCES products (sku),
            available INTEGER NOT NULL CHECK (available >= 0)
        ) WITHOUT ROWID;

        -- id keeps lines in the order their SKU was first added.
        CREATE TABLE cart_lines (
            id INTEGER PRIMARY KEY,
            cart_id TEXT NOT NULL,
            sku TEXT NOT NULL REFERENCES products (sku),
            quantity INTEGER NOT NULL CHECK (quantity >= 1),
            unit_price_cents INTEGER NOT NULL,
            UNIQUE (cart_id, sku)
        );

        -- seq is placement order: newest first is seq descending; order cursors hold a seq.
        CREATE TABLE orders (
            seq INTEGER PRIMARY KEY,
            order_id TEXT NOT NULL UNIQUE,
            cart_id TEXT NOT NULL,
            idempotency_key TEXT NOT NULL UNIQUE,
            total_cents INTEGER NOT NULL,
            currency TEXT NOT NULL,
            status TEXT NOT NULL,
            created_at TEXT NOT NULL
        );
        CREATE INDEX orders_by_cart ON orders (cart_id, seq);

        CREATE TABLE order_lines (
            order_seq INTEGER NOT NULL REFERENCES orders (seq),
            line_no INTEGER NOT NULL,
            sku TEXT NOT NULL,
            quantity INTEGER NOT NULL,
            unit_price_cents INTEGER NOT NULL,
            PRIMARY KEY (order_seq, line_no)
        ) WITHOUT ROWID;
        """

    // MARK: - Version 3: catalog files (shop-rpc import and export)

    /// Products get their place in catalog order (`seq`, what search results are ordered by: the
    /// existing ones in SKU order) and can be archived (`--replace`); listings by category read
    /// the products in the catalog through a partial index, so archived ones cost them nothing. Search moves to
    /// `product_words` (`SQLiteSearchIndex`, created after the migrations) over the words of
    /// `search_vocabulary`, which this fills from the products there are.
    private static func catalogFiles(_ connection: SQLiteConnection) throws {
        try connection.execute("""
            ALTER TABLE products ADD COLUMN seq INTEGER;
            ALTER TABLE products ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
            UPDATE products SET seq = ordered.n
                FROM (SELECT sku, row_number() OVER (ORDER BY sku) AS n FROM products) AS ordered
                WHERE products.sku = ordered.sku;
            CREATE UNIQUE INDEX products_by_seq ON products (seq);
            DROP INDEX products_by_category;
            CREATE INDEX products_live_by_category ON products (category, sku) WHERE archived = 0;
            CREATE TABLE search_vocabulary (word TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID;
            DROP TABLE IF EXISTS product_search;
            """)
        let products = try connection.query("SELECT name, category FROM products", []) { ($0.text(0), $0.text(1)) }
        var words = Set<String>()
        for (name, category) in products {
            words.formUnion(SearchText.productWords(name: name, category: category).filter(SearchMatching.isInVocabulary))
        }
        for word in words {
            try connection.run("INSERT INTO search_vocabulary (word) VALUES (?1)", word)
        }
    }

    // MARK: - Version 4: cancelled orders and the stock ledger

    /// Orders can be cancelled (`cancelled_at`, `cancel_reason`), and every change of stock from
    /// now on appends a row to `stock_ledger` (`StockMovement`). Levels set before (the seeded
    /// catalog, orders placed by earlier builds) have no rows: a SKU's level before its first row
    /// is that row's `available_after - delta`.
    private static let cancellationAndLedger = """
        ALTER TABLE orders ADD COLUMN cancelled_at TEXT;
        ALTER TABLE orders ADD COLUMN cancel_reason TEXT;

        -- Written on every order line, read in seq order (export): no other index, which would
        -- cost every order. seq is ledger order; for one SKU it is the order its changes were
        -- made in (writes are serialised).
        CREATE TABLE stock_ledger (
            seq INTEGER PRIMARY KEY,
            at TEXT NOT NULL,
            sku TEXT NOT NULL,
            delta INTEGER NOT NULL CHECK (delta <> 0),
            available_after INTEGER NOT NULL CHECK (available_after >= 0),
            reason TEXT NOT NULL,
            order_id TEXT,
            source TEXT,
            actor TEXT
        );
        """

    // MARK: - Version 5: customers

    /// Customers' carts and idempotency keys are stored under `customer U+001F id` (`CustomerKey`),
    /// and an order records its customer in its stored cart key. A key an earlier build wrote
    /// belongs to no customer: the few that hold a U+001F are moved behind one (an empty customer
    /// part), where `CustomerKey.stored` now keeps such keys, so none passes for a customer's.
    private static let keysOfNoCustomer = """
        UPDATE cart_lines SET cart_id = char(31) || cart_id WHERE instr(cart_id, char(31)) > 0;
        UPDATE orders SET cart_id = char(31) || cart_id WHERE instr(cart_id, char(31)) > 0;
        UPDATE orders SET idempotency_key = char(31) || idempotency_key WHERE instr(idempotency_key, char(31)) > 0;
        """

    // MARK: - Version 6: products with variants

    /// A row of `products` is now a variant (its SKU), and carries its product's fields: `handle`
    /// names the product, `product_seq` is the `seq` of the product's first variant (the
    /// product's place in catalog order), and name, description, category, `brand`, `status` and
    /// `option_names` are the product's, the same on every row of one handle: the store writes
    /// them to every variant of the product in the same statement (`SQLiteCatalogImport`,
    /// `archiveProduct`), and nothing else writes them. `archived` stays what every shopper's read
    /// filters on (and what its indexes are partial on): 1 when the status is not active (a draft
    /// or an archived product). The options are stored as one text each, the names and the
    /// variant's values joined by U+001F (which no option may hold). Listings and search read the
    /// first variants (`seq = product_seq`) only, so the search index holds first variants only.
    ///
    /// Each existing SKU becomes a product whose handle is its SKU, with one variant, no options,
    /// active, or archived if it was.
    private static let productsWithVariants = """
        ALTER TABLE products ADD COLUMN handle TEXT;
        ALTER TABLE products ADD COLUMN product_seq INTEGER;
        ALTER TABLE products ADD COLUMN brand TEXT NOT NULL DEFAULT '';
        ALTER TABLE products ADD COLUMN status TEXT NOT NULL DEFAULT 'active';
        ALTER TABLE products ADD COLUMN option_names TEXT NOT NULL DEFAULT '';
        ALTER TABLE products ADD COLUMN option_values TEXT NOT NULL DEFAULT '';
        UPDATE products SET handle = sku, product_seq = seq, status = CASE archived WHEN 0 THEN 'active' ELSE 'archived' END;
        CREATE INDEX products_by_handle ON products (handle, seq);
        DROP INDEX products_live_by_category;
        CREATE INDEX products_live_by_category ON products (category, seq) WHERE archived = 0 AND seq = product_seq;
        """

    // MARK: - Version 7: a partial index of handles

    /// `products_by_handle` holds only the rows a lookup by handle cannot find by primary key:
    /// every variant but a product's first, and a first variant whose handle is not its own SKU.
    /// A catalog without handles (each product one variant, named by its SKU) costs it nothing,
    /// where it cost a million-product import a million index rows. The queries that read it
    /// (`SQLiteProductHandle`) find the variants it leaves out by their SKU.
    private static let handlesOfVariantsOnly = """
        DROP INDEX products_by_handle;
        CREATE INDEX products_by_handle ON products (handle, seq) WHERE seq <> product_seq OR handle <> sku;
        """

    // MARK: - Version 8: search over every field, live products only

    /// Search reads every field (name, brand, category, description, every variant's SKU, the
    /// handle) with stems, typos and prefixes (`ProductSearch`): `search_documents` holds each
    /// live product's words, `search_vocabulary` gets each word's count of live products (it
    /// used to keep every word ever indexed), and `product_words` is dropped, to be made again
    /// from `search_documents` by `SQLiteSearchIndex.prepare` (with the new terms and tokenizer).
    private static func searchIndexOfEveryField(_ connection: SQLiteConnection) throws {
        // Without FTS5 the old table cannot be dropped; it then stays unused (`.scan`).
        try? connection.execute("DROP TABLE IF EXISTS product_words")
        try connection.execute("""
            DROP TABLE IF EXISTS search_vocabulary;
            CREATE TABLE search_vocabulary (word TEXT PRIMARY KEY NOT NULL, products INTEGER NOT NULL) WITHOUT ROWID;
            CREATE TABLE search_documents (product_seq INTEGER PRIMARY KEY, words TEXT NOT NULL);
            """)
        try SQLiteSearchIndexWriter.rebuildDocuments(on: connection)
    }

    // MARK: - Version 9: search synonyms

    /// The owner's search synonyms (`SearchSynonyms`, `admin.search.synonyms.set`), as their JSON,
    /// in one row; no row is no synonyms.
    static let searchSynonyms = """
        CREATE TABLE search_synonyms (id INTEGER PRIMARY KEY CHECK (id = 1), synonyms TEXT NOT NULL);
        """

    // MARK: - Version 10: name terms

    /// Each live product is also indexed under its name's words and stem keys, marked
    /// (`SearchIndexTerms.nameMark`), so search can rank first the products whose name has every
    /// word of a broad query: `search_documents` is filled again from every live product, and
    /// `product_words` is dropped, to be made again from it by `SQLiteSearchIndex.prepare` (its
    /// tokenizer now keeps `^` in a term).
    private static func searchIndexOfNames(_ connection: SQLiteConnection) throws {
        // Without FTS5 the old table cannot be dropped; it then stays unused (`.scan`).
        try? connection.execute("DROP TABLE IF EXISTS product_words")
        try SQLiteSearchIndexWriter.rebuildDocuments(on: connection)
    }
}
