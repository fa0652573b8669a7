/// The PostgreSQL schema as an ordered list of migrations, versioned in `shop_schema_version`:
/// the same tables as `SQLiteSchema` (SQLite), in PostgreSQL's dialect.
///
/// To change the schema, append a migration with the next version; never edit a shipped one.
enum PostgreSQLSchema {
    /// One step from `version - 1` to `version`.
    struct Migration: Sendable {
        let version: Int
        let apply: @Sendable (PostgreSQLConnection, StoreCreation) throws -> Void
    }

    /// Key of the transaction-scoped advisory lock that serialises migrations across processes.
    static let migrationLockKey: Int64 = 0x5_0004_5109

    static let migrations: [Migration] = [
        Migration(version: 1) { connection, _ in try connection.execute(createTables) },
        Migration(version: 2) { connection, creation in
            if creation == .demoCatalog { try seedCatalog(into: connection) }
        },
        Migration(version: 3) { connection, _ in try connection.execute(PostgreSQLOrderFunction.createVersion3) },
        // shop_place_order takes the cart's lock, then its stock rows in SKU order (PostgreSQLCartLock).
        Migration(version: 4) { connection, _ in try connection.execute(PostgreSQLOrderFunction.createVersion3) },
        // Catalog files: catalog order, archiving, the word index; orders refuse archived products.
        Migration(version: 5) { connection, _ in
            try catalogFiles(connection)
            try connection.execute(PostgreSQLOrderFunction.createVersion5)
        },
        // Cancellation and the stock ledger; shop_place_order writes the ledger and takes an actor.
        Migration(version: 6) { connection, _ in
            try connection.execute(cancellationAndLedger)
            try connection.execute(PostgreSQLOrderFunction.create)
            try connection.execute(PostgreSQLOrderFunction.createEarlierSignature)
        },
        // Customers: keys of no customer that hold a U+001F move behind one (CustomerKey).
        Migration(version: 7) { connection, _ in try connection.execute(keysOfNoCustomer) },
        // Products with variants: a row is a variant; its product's fields, handle and status beside it.
        Migration(version: 8) { connection, _ in try connection.execute(productsWithVariants) },
        // Search (#42): each product's analyzer words and stems, and the live vocabulary with its
        // counts. Version 9 is taken by another branch (import speed); the two are renumbered
        // when they are merged.
        Migration(version: 10) { connection, _ in try searchIndex(connection) },
        Migration(version: 11) { connection, _ in try connection.execute(searchSynonyms) },
        Migration(version: 12) { connection, _ in try searchIndexOfNames(connection) },
    ]

    static var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Brings the database up to `latestVersion` in one transaction holding an advisory lock, so
    /// several processes starting at once on an empty database create and seed it exactly once
    /// (the others wait for the lock, then find it done). `creation` says what a new database
    /// starts with (the same choices as SQLite's).
    ///
    /// Fails if the database was written by a newer build (a higher version).
    static func migrate(_ connection: PostgreSQLConnection, creation: StoreCreation) throws {
        try connection.execute("BEGIN")
        do {
            try migrateInOpenTransaction(connection, creation: creation)
            try connection.execute("COMMIT")
        } catch {
            connection.rollbackIfInTransaction()
            throw error
        }
    }

    /// `migrate`'s work inside the transaction open on `connection`, which the caller commits or
    /// rolls back (an import into a database without the schema: `StoreCreation.importedFile`).
    /// Sets the transaction's `lock_timeout` and `statement_timeout` to 0 (no limit) and holds the
    /// migration lock until it ends.
    static func migrateInOpenTransaction(_ connection: PostgreSQLConnection, creation: StoreCreation) throws {
        // Waiting for another process's migration is not a write to give up on.
        try connection.execute("SET LOCAL lock_timeout = 0; SET LOCAL statement_timeout = 0")
        _ = try connection.query("SELECT pg_advisory_xact_lock($1)", [migrationLockKey]) { _ in () }
        try connection.execute("CREATE TABLE IF NOT EXISTS shop_schema_version (version INTEGER NOT NULL)")
        let current = try connection.query("SELECT max(version) FROM shop_schema_version", []) { $0.int(0) }.first ?? 0
        guard current <= latestVersion else {
            throw PostgreSQLError(sqlState: "", message: "database schema version \(current) is newer than this build's \(latestVersion)")
        }
        for migration in migrations where migration.version > current {
            try migration.apply(connection, creation)
        }
        if current < latestVersion {
            try connection.run("DELETE FROM shop_schema_version", [])
            try connection.run("INSERT INTO shop_schema_version (version) VALUES ($1)", [latestVersion])
        }
    }

    /// The schema version the database holds, 0 when it has none (no `shop_schema_version`).
    static func currentVersion(_ connection: PostgreSQLConnection) throws -> Int {
        let hasVersion = try connection.query("SELECT count(*) FROM pg_class WHERE oid = to_regclass('shop_schema_version')", []) { $0.int(0) }.first == 1
        guard hasVersion else { return 0 }
        return try connection.query("SELECT coalesce(max(version), 0) FROM shop_schema_version", []) { $0.int(0) }.first ?? 0
    }

    /// For a store opened read-only, which cannot migrate: checks that the database holds the
    /// shop's schema at `latestVersion`.
    /// - Throws: `PostgreSQLError` saying there is no shop store in the database, or that it needs
    ///   a migration that opening it once without `--read-only` makes, or comes from a newer build.
    static func checkReadOnly(_ connection: PostgreSQLConnection) throws {
        let current = try currentVersion(connection)
        guard current == latestVersion else {
            let reason = current == 0 ? "there is no shop store in this database, and a read-only opening never creates one"
                : current > latestVersion ? "its schema version \(current) is newer than this build's \(latestVersion)"
                : "its schema version \(current) is older than this build's \(latestVersion); open it once read-write to migrate it"
            throw PostgreSQLError(sqlState: "", message: reason)
        }
    }

    // MARK: - Version 1

    private static let createTables = """
        CREATE TABLE products (
            sku TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            description TEXT NOT NULL,
            category TEXT NOT NULL,
            price_cents BIGINT NOT NULL CHECK (price_cents >= 0),
            currency TEXT NOT NULL
        );
        CREATE INDEX products_by_category ON products (category, sku);

        CREATE TABLE stock (
            sku TEXT PRIMARY KEY REFERENCES products (sku),
            available BIGINT NOT NULL CHECK (available >= 0)
        );

        -- id keeps lines in the order their SKU was first added.
        CREATE TABLE cart_lines (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            cart_id TEXT NOT NULL,
            sku TEXT NOT NULL REFERENCES products (sku),
            quantity BIGINT NOT NULL CHECK (quantity >= 1),
            unit_price_cents BIGINT NOT NULL,
            UNIQUE (cart_id, sku)
        );

        -- seq is placement order: newest first is seq descending; order cursors hold a seq.
        CREATE TABLE orders (
            seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            order_id TEXT NOT NULL UNIQUE,
            cart_id TEXT NOT NULL,
            idempotency_key TEXT NOT NULL UNIQUE,
            total_cents BIGINT NOT NULL,
            currency TEXT NOT NULL,
            status TEXT NOT NULL,
            created_at TEXT NOT NULL
        );
        CREATE INDEX orders_by_cart ON orders (cart_id, seq);

        CREATE TABLE order_lines (
            order_seq BIGINT NOT NULL REFERENCES orders (seq),
            line_no INTEGER NOT NULL,
            sku TEXT NOT NULL,
            quantity BIGINT NOT NULL,
            unit_price_cents BIGINT NOT NULL,
            PRIMARY KEY (order_seq, line_no)
        );
        """

    // MARK: - Version 2

    /// The same deterministic catalog as the SQLite store (`CatalogSeed.entries()`).
    private static func seedCatalog(into connection: PostgreSQLConnection) throws {
        for entry in CatalogSeed.entries() {
            let product = entry.product
            try connection.run(
                "INSERT INTO products (sku, name, description, category, price_cents, currency) VALUES ($1, $2, $3, $4, $5, $6)",
                [product.sku, product.name, product.description, product.category, product.priceCents, product.currency]
            )
            try connection.run("INSERT INTO stock (sku, available) VALUES ($1, $2)", [product.sku, entry.stock])
        }
    }

    // MARK: - Version 5: catalog files (shop-rpc import and export)

    /// The same changes as SQLite's version 3 (`SQLiteSchema`): `seq` (catalog order; the
    /// existing products in SKU order), `archived`, and listings by category through a partial
    /// index of the products in the catalog (the planner walks the primary key or `seq`'s index
    /// for the others, skipping archived rows: every index costs an import of a million rows a
    /// second or more here); plus the word index: `words`, each product's
    /// `SearchText.productWords` as a `tsvector` (lexemes exactly as given, no parser or
    /// dictionary involved), under a GIN index, and `search_vocabulary`, kept in code point order
    /// (`COLLATE "C"`, as SQLite compares).
    private static func catalogFiles(_ connection: PostgreSQLConnection) throws {
        try connection.execute("""
            ALTER TABLE products ADD COLUMN seq BIGINT;
            ALTER TABLE products ADD COLUMN archived BOOLEAN NOT NULL DEFAULT false;
            ALTER TABLE products ADD COLUMN words tsvector NOT NULL DEFAULT ''::tsvector;
            UPDATE products SET seq = ordered.n
                FROM (SELECT sku, row_number() OVER (ORDER BY sku COLLATE "C") AS n FROM products) AS ordered
                WHERE products.sku = ordered.sku;
            ALTER TABLE products ALTER COLUMN seq SET NOT NULL;
            CREATE UNIQUE INDEX products_by_seq ON products (seq);
            DROP INDEX products_by_category;
            CREATE INDEX products_live_by_category ON products (category, sku) WHERE NOT archived;
            CREATE TABLE search_vocabulary (word TEXT COLLATE "C" PRIMARY KEY);
            """)
        let products = try connection.query("SELECT sku, name, category FROM products", []) { ($0.text(0), $0.text(1), $0.text(2)) }
        var vocabulary = Set<String>()
        for (sku, name, category) in products {
            let words = SearchText.productWords(name: name, category: category)
            vocabulary.formUnion(words.filter(SearchMatching.isInVocabulary))
            try connection.run("UPDATE products SET words = $2::tsvector WHERE sku = $1", [sku, PostgreSQLWords.tsvector(words)])
        }
        for word in vocabulary {
            try connection.run("INSERT INTO search_vocabulary (word) VALUES ($1)", [word])
        }
        try connection.execute("CREATE INDEX products_words ON products USING gin (words) WHERE NOT archived")
    }

    // MARK: - Version 6: cancelled orders and the stock ledger

    /// The same as SQLite's version 4 (`SQLiteSchema`).
    private static let cancellationAndLedger = """
        ALTER TABLE orders ADD COLUMN cancelled_at TEXT, ADD COLUMN cancel_reason TEXT;

        -- Written on every order line, read in seq order (export): no other index, which would
        -- cost every order (about 0.03 ms of the server's CPU each). seq is ledger order; for one
        -- SKU it is the order its changes were made in (a change holds the SKU's stock row lock
        -- from its UPDATE through its commit, and takes its seq in between).
        CREATE TABLE stock_ledger (
            seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            at TEXT NOT NULL,
            sku TEXT NOT NULL,
            delta BIGINT NOT NULL CHECK (delta <> 0),
            available_after BIGINT NOT NULL CHECK (available_after >= 0),
            reason TEXT NOT NULL,
            order_id TEXT,
            source TEXT,
            actor TEXT
        );
        """

    // MARK: - Version 7: customers

    /// The same as SQLite's version 5 (`SQLiteSchema`).
    private static let keysOfNoCustomer = """
        UPDATE cart_lines SET cart_id = chr(31) || cart_id WHERE strpos(cart_id, chr(31)) > 0;
        UPDATE orders SET cart_id = chr(31) || cart_id WHERE strpos(cart_id, chr(31)) > 0;
        UPDATE orders SET idempotency_key = chr(31) || idempotency_key WHERE strpos(idempotency_key, chr(31)) > 0;
        """

    // MARK: - Version 8: products with variants

    /// The same as SQLite's version 6 (`SQLiteSchema`): a row is a variant, with its product's
    /// `handle`, `product_seq` (its first variant's `seq`, the product's place), fields, `brand`,
    /// `status` and `option_names`, written to every variant of the product together; `archived`
    /// is true when the status is not active. Only a product's first variant has `words` (the
    /// others' are empty), so search finds each product once. Listings and search's first step
    /// walk the live first variants in `seq` order through a partial index of exactly those: the
    /// planner cannot estimate `seq = product_seq` (it takes it for 0.5 % of the rows), and without
    /// that index it read a million rows through the category index and sorted them (1 s a search
    /// at a million products, against 20 ms with it).
    private static let productsWithVariants = """
        ALTER TABLE products ADD COLUMN handle TEXT, ADD COLUMN product_seq BIGINT,
            ADD COLUMN brand TEXT NOT NULL DEFAULT '', ADD COLUMN status TEXT NOT NULL DEFAULT 'active',
            ADD COLUMN option_names TEXT NOT NULL DEFAULT '', ADD COLUMN option_values TEXT NOT NULL DEFAULT '';
        UPDATE products SET handle = sku, product_seq = seq, status = CASE WHEN archived THEN 'archived' ELSE 'active' END;
        ALTER TABLE products ALTER COLUMN handle SET NOT NULL, ALTER COLUMN product_seq SET NOT NULL;
        CREATE INDEX products_by_handle ON products (handle, seq);
        DROP INDEX products_live_by_category;
        CREATE INDEX products_live_by_category ON products (category, seq) WHERE NOT archived AND seq = product_seq;
        CREATE INDEX products_live_by_seq ON products (seq) WHERE NOT archived AND seq = product_seq;
        """

    // MARK: - Version 10: the search index

    /// `products.search_words`: a product's lexemes on its first variant (`PostgreSQLSearchTerms`;
    /// empty on the others), under a GIN index of the live products; `search_word_counts`: each
    /// word of the live products with how many have it, kept in byte order (`COLLATE "C"`, as
    /// `SearchVocabulary` enumerates). Both filled from the products the database holds
    /// (`PostgreSQLSearchIndex`), the index built after. The earlier `words` and
    /// `search_vocabulary` stay for the search that still reads them.
    private static func searchIndex(_ connection: PostgreSQLConnection) throws {
        try connection.execute("""
            ALTER TABLE products ADD COLUMN search_words tsvector NOT NULL DEFAULT ''::tsvector;
            CREATE TABLE search_word_counts (word TEXT COLLATE "C" PRIMARY KEY, products BIGINT NOT NULL);
            """)
        var index = try PostgreSQLSearchIndex(connection: connection)
        try index.rebuild(try connection.query("SELECT seq FROM products WHERE seq = product_seq ORDER BY seq", []) { $0.int64(0) })
        try index.applyDeltas()
        try connection.execute("CREATE INDEX products_search_words ON products USING gin (search_words) WHERE NOT archived")
    }

    // MARK: - Version 11: search synonyms

    /// The owner's search synonyms (`SearchSynonyms`, `admin.search.synonyms.set`), as their JSON,
    /// in one row; no row is no synonyms.
    static let searchSynonyms = """
        CREATE TABLE search_synonyms (id INTEGER PRIMARY KEY CHECK (id = 1), synonyms TEXT NOT NULL);
        """

    // MARK: - Version 12: name terms

    /// Each product's `search_words` also holds its name's words and stem keys, marked
    /// (`PostgreSQLSearchTerms`), so search can rank first the products whose name has every word
    /// of a broad query: every product is indexed again (its words taken out of the counts and
    /// put back), without the GIN index, which is built after.
    private static func searchIndexOfNames(_ connection: PostgreSQLConnection) throws {
        try connection.execute("DROP INDEX products_search_words")
        var index = try PostgreSQLSearchIndex(connection: connection)
        let all = "SELECT seq FROM products WHERE seq = product_seq"
        try connection.execute(PostgreSQLSearchIndex.subtractingLiveWords(ofProductsIn: all))
        try index.rebuild(try connection.query(all + " ORDER BY seq", []) { $0.int64(0) })
        try index.applyDeltas()
        try connection.execute("CREATE INDEX products_search_words ON products USING gin (search_words) WHERE NOT archived")
    }
}
