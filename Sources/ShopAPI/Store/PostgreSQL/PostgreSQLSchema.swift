// MARK: - PostgreSQLSchema

/// The PostgreSQL schema as an ordered list of migrations, versioned in `shop_schema_version`:
/// the same tables as `SQLiteSchema` (SQLite), in PostgreSQL's dialect.
///
/// To change the schema, append a migration with the next version; never edit a shipped one.
enum PostgreSQLSchema {
    /// One step from `version - 1` to `version`.
    struct Migration: Sendable {
        let version: Int
        let apply: @Sendable (PostgreSQLConnection) throws -> Void
    }

    /// Key of the transaction-scoped advisory lock that serialises migrations across processes.
    static let migrationLockKey: Int64 = 0x5_0004_5109

    static let migrations: [Migration] = [
        Migration(version: 1) { try $0.execute(createTables) },
        Migration(version: 2) { try seedCatalog(into: $0) },
        Migration(version: 3) { try $0.execute(PostgreSQLOrderFunction.create) },
        // shop_place_order takes the cart's lock, then its stock rows in SKU order (PostgreSQLCartLock).
        Migration(version: 4) { try $0.execute(PostgreSQLOrderFunction.create) },
    ]

    static var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Brings the database up to `latestVersion` in one transaction holding an advisory lock, so
    /// several processes starting at once on an empty database create and seed it exactly once
    /// (the others wait for the lock, then find it done).
    ///
    /// Fails if the database was written by a newer build (a higher version).
    static func migrate(_ connection: PostgreSQLConnection) throws {
        try connection.execute("BEGIN")
        do {
            _ = try connection.query("SELECT pg_advisory_xact_lock($1)", [migrationLockKey]) { _ in () }
            try connection.execute("CREATE TABLE IF NOT EXISTS shop_schema_version (version INTEGER NOT NULL)")
            let current = try connection.query("SELECT max(version) FROM shop_schema_version", []) { $0.int(0) }.first ?? 0
            guard current <= latestVersion else {
                throw PostgreSQLError(sqlState: "", message: "database schema version \(current) is newer than this build's \(latestVersion)")
            }
            for migration in migrations where migration.version > current {
                try migration.apply(connection)
            }
            if current < latestVersion {
                try connection.run("DELETE FROM shop_schema_version", [])
                try connection.run("INSERT INTO shop_schema_version (version) VALUES ($1)", [latestVersion])
            }
            try connection.execute("COMMIT")
        } catch {
            connection.rollbackIfInTransaction()
            throw error
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
}
