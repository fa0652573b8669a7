/// `OrderPlacement`'s rules as one PL/pgSQL function, `shop_place_order`, so that placing an order
/// costs one round trip (its statement_timeout, the call and the commit, in libpq's pipeline
/// mode) instead of eight. `create` is its current definition (`CREATE OR REPLACE FUNCTION`): a
/// change to it adds a schema migration that applies it, so that databases made by an earlier
/// build are brought up to date (`PostgreSQLSchema`, versions 3 to 6; `createVersion3` and
/// `createVersion5` are the definitions versions 3 and 4, and 5 applied, kept as shipped). A change
/// of its arguments or result makes a new overload; `createEarlierSignature` then turns the one
/// before into a wrapper of the new one, so a process of an earlier build still running on the
/// database keeps the rules of the new one (version 6: every line's ledger row).
///
/// The function keeps the rules exactly, against a `READ COMMITTED` transaction (each statement
/// sees what other transactions committed before it started). It first takes the cart's lock
/// (`PostgreSQLCartLock`), so a concurrent `cart.add` to this cart waits for the order instead of
/// adding a line that the order would then delete unordered:
/// 1. the idempotency key's order, for this cart, is returned as it is; for another cart it
///    raises `SQLSTATE SHOP3`;
/// 2. no cart lines: the key is looked up again (another process may have placed this order and
///    emptied the cart meanwhile) and its order returned, else `SHOP2`;
/// 3. each line takes its stock with one conditional UPDATE, only while the product is in the
///    catalog, and appends its `sale` ledger row (`p_actor` as its actor), the lines in one
///    canonical order (`StockLockOrder`: by SKU, `COLLATE "C"`, whatever the cart's order; cancels
///    and admin writes keep it too), so two writers that share SKUs lock those rows in the same
///    order and can never deadlock (a concurrent writer of a row makes the UPDATE wait, then
///    re-check); if any line cannot, the first such line in cart order raises `SHOP4` with DETAIL
///    `sku` when its product is archived, else `SHOP1` with DETAIL `requested available sku` (the
///    level it sees), which undoes the stock (and ledger rows) already taken, so the line reported
///    is the one the SQLite store reports;
/// 4. the order row and its lines are inserted from the cart lines read once (a concurrent
///    `cart.add` cannot make the order differ from the stock taken), and the cart emptied. A
///    concurrent order under the same key makes the INSERT fail with `unique_violation` once the
///    other commits; the store runs the call again and rule 1 returns that order.
///
/// Every statement in it finds its rows by key, through an index. It is planned with
/// `enable_seqscan = off` because PL/pgSQL keeps a statement's plan for the session: a plan made
/// while a table was nearly empty (a fresh shop) would otherwise go on scanning the whole table
/// for each order as it grows, until the next ANALYZE replaces it.
///
/// It returns the order as rows, one per line in line order: order id, cart id, total, currency,
/// status, created at, sku, quantity, unit price, cancelled at, cancel reason (an order the key
/// placed earlier may have been cancelled since). Strings are `PostgreSQLText` as stored.
/// Stateless; thread-safe.
enum PostgreSQLOrderFunction {
    // MARK: - Definition (migration 6)

    static let create = """
        CREATE OR REPLACE FUNCTION shop_place_order(
            p_cart_id TEXT, p_key TEXT, p_order_id TEXT, p_created_at TEXT, p_currency TEXT, p_status TEXT, p_actor TEXT
        ) RETURNS TABLE (
            r_order_id TEXT, r_cart_id TEXT, r_total_cents BIGINT, r_currency TEXT, r_status TEXT,
            r_created_at TEXT, r_sku TEXT, r_quantity BIGINT, r_unit_price_cents BIGINT,
            r_cancelled_at TEXT, r_cancel_reason TEXT
        ) LANGUAGE plpgsql VOLATILE SET enable_seqscan = off AS $fn$
        DECLARE
            v_seq BIGINT;
            v_cart TEXT;
            v_skus TEXT[];
            v_quantities BIGINT[];
            v_prices BIGINT[];
            v_available BIGINT;
            v_after BIGINT;
            v_total BIGINT := 0;
            v_by_sku BIGINT[];
            v_line BIGINT;
            v_short BIGINT;
        BEGIN
            -- The store's currency when the caller does not know it yet: every product has it
            -- (the first by key, so the lookup is an index probe like every other statement here).
            IF p_currency IS NULL THEN
                SELECT p.currency INTO p_currency FROM products p ORDER BY p.sku LIMIT 1;
                p_currency := coalesce(p_currency, 'USD');
            END IF;
            PERFORM \(PostgreSQLCartLock.call("p_cart_id"));
            SELECT o.seq, o.cart_id INTO v_seq, v_cart FROM orders o WHERE o.idempotency_key = p_key;
            IF NOT FOUND THEN
                SELECT array_agg(c.sku ORDER BY c.id), array_agg(c.quantity ORDER BY c.id), array_agg(c.unit_price_cents ORDER BY c.id)
                    INTO v_skus, v_quantities, v_prices
                    FROM cart_lines c WHERE c.cart_id = p_cart_id;
                IF v_skus IS NULL THEN
                    SELECT o.seq, o.cart_id INTO v_seq, v_cart FROM orders o WHERE o.idempotency_key = p_key;
                    IF NOT FOUND THEN
                        RAISE EXCEPTION USING ERRCODE = 'SHOP2', MESSAGE = 'cart is empty';
                    END IF;
                ELSE
                    -- One lock order for every stock writer: by SKU, byte by byte (rule 3).
                    SELECT array_agg(t.n ORDER BY t.sku COLLATE "C") INTO v_by_sku FROM unnest(v_skus) WITH ORDINALITY AS t(sku, n);
                    FOREACH v_line IN ARRAY v_by_sku LOOP
                        UPDATE stock s SET available = s.available - v_quantities[v_line]
                            WHERE s.sku = v_skus[v_line] AND s.available >= v_quantities[v_line]
                              AND NOT EXISTS (SELECT 1 FROM products p WHERE p.sku = s.sku AND p.archived)
                            RETURNING s.available INTO v_after;
                        IF NOT FOUND THEN
                            IF v_short IS NULL OR v_line < v_short THEN
                                v_short := v_line;
                            END IF;
                        ELSE
                            INSERT INTO stock_ledger (at, sku, delta, available_after, reason, order_id, actor)
                                VALUES (p_created_at, v_skus[v_line], -v_quantities[v_line], v_after, 'sale', p_order_id, p_actor);
                        END IF;
                        v_total := v_total + v_quantities[v_line] * v_prices[v_line];
                    END LOOP;
                    -- The first short line in cart order is the one reported, whatever the lock order.
                    IF v_short IS NOT NULL THEN
                        IF EXISTS (SELECT 1 FROM products p WHERE p.sku = v_skus[v_short] AND p.archived) THEN
                            RAISE EXCEPTION USING ERRCODE = 'SHOP4', MESSAGE = 'product archived', DETAIL = v_skus[v_short];
                        END IF;
                        SELECT s.available INTO v_available FROM stock s WHERE s.sku = v_skus[v_short];
                        RAISE EXCEPTION USING ERRCODE = 'SHOP1', MESSAGE = 'out of stock',
                            DETAIL = v_quantities[v_short] || ' ' || coalesce(v_available, 0) || ' ' || v_skus[v_short];
                    END IF;
                    INSERT INTO orders (order_id, cart_id, idempotency_key, total_cents, currency, status, created_at)
                        VALUES (p_order_id, p_cart_id, p_key, v_total, p_currency, p_status, p_created_at)
                        RETURNING seq INTO v_seq;
                    INSERT INTO order_lines (order_seq, line_no, sku, quantity, unit_price_cents)
                        SELECT v_seq, t.n, t.sku, t.q, t.p
                        FROM unnest(v_skus, v_quantities, v_prices) WITH ORDINALITY AS t(sku, q, p, n);
                    DELETE FROM cart_lines c WHERE c.cart_id = p_cart_id;
                    RETURN QUERY
                        SELECT p_order_id, p_cart_id, v_total, p_currency, p_status, p_created_at, t.sku, t.q, t.p, NULL::TEXT, NULL::TEXT
                        FROM unnest(v_skus, v_quantities, v_prices) WITH ORDINALITY AS t(sku, q, p, n) ORDER BY t.n;
                    RETURN;
                END IF;
            END IF;
            IF v_cart <> p_cart_id THEN
                RAISE EXCEPTION USING ERRCODE = 'SHOP3', MESSAGE = 'idempotency key placed an order for another cart';
            END IF;
            RETURN QUERY
                SELECT o.order_id, o.cart_id, o.total_cents, o.currency, o.status, o.created_at, l.sku, l.quantity, l.unit_price_cents,
                    o.cancelled_at, o.cancel_reason
                FROM orders o JOIN order_lines l ON l.order_seq = o.seq
                WHERE o.seq = v_seq ORDER BY l.line_no;
        END
        $fn$
        """

    /// The signature of migrations 3 to 5 (no actor; nine result columns), kept as a wrapper of
    /// `create`'s, so that an earlier build's `shop_place_order($1, …, $6)` writes ledger rows too.
    static let createEarlierSignature = """
        CREATE OR REPLACE FUNCTION shop_place_order(
            p_cart_id TEXT, p_key TEXT, p_order_id TEXT, p_created_at TEXT, p_currency TEXT, p_status TEXT
        ) RETURNS TABLE (
            r_order_id TEXT, r_cart_id TEXT, r_total_cents BIGINT, r_currency TEXT, r_status TEXT,
            r_created_at TEXT, r_sku TEXT, r_quantity BIGINT, r_unit_price_cents BIGINT
        ) LANGUAGE sql VOLATILE AS $fn$
            SELECT t.r_order_id, t.r_cart_id, t.r_total_cents, t.r_currency, t.r_status, t.r_created_at, t.r_sku, t.r_quantity, t.r_unit_price_cents
            FROM shop_place_order(p_cart_id, p_key, p_order_id, p_created_at, p_currency, p_status, NULL::TEXT) AS t
        $fn$
        """

    /// The definition migration 5 applied (archived products refused; no ledger), as shipped.
    static let createVersion5 = """
        CREATE OR REPLACE FUNCTION shop_place_order(
            p_cart_id TEXT, p_key TEXT, p_order_id TEXT, p_created_at TEXT, p_currency TEXT, p_status TEXT
        ) RETURNS TABLE (
            r_order_id TEXT, r_cart_id TEXT, r_total_cents BIGINT, r_currency TEXT, r_status TEXT,
            r_created_at TEXT, r_sku TEXT, r_quantity BIGINT, r_unit_price_cents BIGINT
        ) LANGUAGE plpgsql VOLATILE SET enable_seqscan = off AS $fn$
        DECLARE
            v_seq BIGINT;
            v_cart TEXT;
            v_skus TEXT[];
            v_quantities BIGINT[];
            v_prices BIGINT[];
            v_available BIGINT;
            v_total BIGINT := 0;
            v_by_sku BIGINT[];
            v_line BIGINT;
            v_short BIGINT;
        BEGIN
            -- The store's currency when the caller does not know it yet: every product has it.
            IF p_currency IS NULL THEN
                SELECT p.currency INTO p_currency FROM products p LIMIT 1;
                p_currency := coalesce(p_currency, 'USD');
            END IF;
            PERFORM \(PostgreSQLCartLock.call("p_cart_id"));
            SELECT o.seq, o.cart_id INTO v_seq, v_cart FROM orders o WHERE o.idempotency_key = p_key;
            IF NOT FOUND THEN
                SELECT array_agg(c.sku ORDER BY c.id), array_agg(c.quantity ORDER BY c.id), array_agg(c.unit_price_cents ORDER BY c.id)
                    INTO v_skus, v_quantities, v_prices
                    FROM cart_lines c WHERE c.cart_id = p_cart_id;
                IF v_skus IS NULL THEN
                    SELECT o.seq, o.cart_id INTO v_seq, v_cart FROM orders o WHERE o.idempotency_key = p_key;
                    IF NOT FOUND THEN
                        RAISE EXCEPTION USING ERRCODE = 'SHOP2', MESSAGE = 'cart is empty';
                    END IF;
                ELSE
                    -- One lock order for every order: the lines by SKU (rule 3).
                    SELECT array_agg(t.n ORDER BY t.sku) INTO v_by_sku FROM unnest(v_skus) WITH ORDINALITY AS t(sku, n);
                    FOREACH v_line IN ARRAY v_by_sku LOOP
                        UPDATE stock s SET available = s.available - v_quantities[v_line]
                            WHERE s.sku = v_skus[v_line] AND s.available >= v_quantities[v_line]
                              AND NOT EXISTS (SELECT 1 FROM products p WHERE p.sku = s.sku AND p.archived);
                        IF NOT FOUND AND (v_short IS NULL OR v_line < v_short) THEN
                            v_short := v_line;
                        END IF;
                        v_total := v_total + v_quantities[v_line] * v_prices[v_line];
                    END LOOP;
                    -- The first short line in cart order is the one reported, whatever the lock order.
                    IF v_short IS NOT NULL THEN
                        IF EXISTS (SELECT 1 FROM products p WHERE p.sku = v_skus[v_short] AND p.archived) THEN
                            RAISE EXCEPTION USING ERRCODE = 'SHOP4', MESSAGE = 'product archived', DETAIL = v_skus[v_short];
                        END IF;
                        SELECT s.available INTO v_available FROM stock s WHERE s.sku = v_skus[v_short];
                        RAISE EXCEPTION USING ERRCODE = 'SHOP1', MESSAGE = 'out of stock',
                            DETAIL = v_quantities[v_short] || ' ' || coalesce(v_available, 0) || ' ' || v_skus[v_short];
                    END IF;
                    INSERT INTO orders (order_id, cart_id, idempotency_key, total_cents, currency, status, created_at)
                        VALUES (p_order_id, p_cart_id, p_key, v_total, p_currency, p_status, p_created_at)
                        RETURNING seq INTO v_seq;
                    INSERT INTO order_lines (order_seq, line_no, sku, quantity, unit_price_cents)
                        SELECT v_seq, t.n, t.sku, t.q, t.p
                        FROM unnest(v_skus, v_quantities, v_prices) WITH ORDINALITY AS t(sku, q, p, n);
                    DELETE FROM cart_lines c WHERE c.cart_id = p_cart_id;
                    RETURN QUERY
                        SELECT p_order_id, p_cart_id, v_total, p_currency, p_status, p_created_at, t.sku, t.q, t.p
                        FROM unnest(v_skus, v_quantities, v_prices) WITH ORDINALITY AS t(sku, q, p, n) ORDER BY t.n;
                    RETURN;
                END IF;
            END IF;
            IF v_cart <> p_cart_id THEN
                RAISE EXCEPTION USING ERRCODE = 'SHOP3', MESSAGE = 'idempotency key placed an order for another cart';
            END IF;
            RETURN QUERY
                SELECT o.order_id, o.cart_id, o.total_cents, o.currency, o.status, o.created_at, l.sku, l.quantity, l.unit_price_cents
                FROM orders o JOIN order_lines l ON l.order_seq = o.seq
                WHERE o.seq = v_seq ORDER BY l.line_no;
        END
        $fn$
        """

    /// The definition migrations 3 and 4 applied (before archived products), as shipped.
    static let createVersion3 = """
        CREATE OR REPLACE FUNCTION shop_place_order(
            p_cart_id TEXT, p_key TEXT, p_order_id TEXT, p_created_at TEXT, p_currency TEXT, p_status TEXT
        ) RETURNS TABLE (
            r_order_id TEXT, r_cart_id TEXT, r_total_cents BIGINT, r_currency TEXT, r_status TEXT,
            r_created_at TEXT, r_sku TEXT, r_quantity BIGINT, r_unit_price_cents BIGINT
        ) LANGUAGE plpgsql VOLATILE SET enable_seqscan = off AS $fn$
        DECLARE
            v_seq BIGINT;
            v_cart TEXT;
            v_skus TEXT[];
            v_quantities BIGINT[];
            v_prices BIGINT[];
            v_available BIGINT;
            v_total BIGINT := 0;
            v_by_sku BIGINT[];
            v_line BIGINT;
            v_short BIGINT;
        BEGIN
            PERFORM \(PostgreSQLCartLock.call("p_cart_id"));
            SELECT o.seq, o.cart_id INTO v_seq, v_cart FROM orders o WHERE o.idempotency_key = p_key;
            IF NOT FOUND THEN
                SELECT array_agg(c.sku ORDER BY c.id), array_agg(c.quantity ORDER BY c.id), array_agg(c.unit_price_cents ORDER BY c.id)
                    INTO v_skus, v_quantities, v_prices
                    FROM cart_lines c WHERE c.cart_id = p_cart_id;
                IF v_skus IS NULL THEN
                    SELECT o.seq, o.cart_id INTO v_seq, v_cart FROM orders o WHERE o.idempotency_key = p_key;
                    IF NOT FOUND THEN
                        RAISE EXCEPTION USING ERRCODE = 'SHOP2', MESSAGE = 'cart is empty';
                    END IF;
                ELSE
                    -- One lock order for every order: the lines by SKU (rule 3).
                    SELECT array_agg(t.n ORDER BY t.sku) INTO v_by_sku FROM unnest(v_skus) WITH ORDINALITY AS t(sku, n);
                    FOREACH v_line IN ARRAY v_by_sku LOOP
                        UPDATE stock s SET available = s.available - v_quantities[v_line]
                            WHERE s.sku = v_skus[v_line] AND s.available >= v_quantities[v_line];
                        IF NOT FOUND AND (v_short IS NULL OR v_line < v_short) THEN
                            v_short := v_line;
                        END IF;
                        v_total := v_total + v_quantities[v_line] * v_prices[v_line];
                    END LOOP;
                    -- The first short line in cart order is the one reported, whatever the lock order.
                    IF v_short IS NOT NULL THEN
                        SELECT s.available INTO v_available FROM stock s WHERE s.sku = v_skus[v_short];
                        RAISE EXCEPTION USING ERRCODE = 'SHOP1', MESSAGE = 'out of stock',
                            DETAIL = v_quantities[v_short] || ' ' || coalesce(v_available, 0) || ' ' || v_skus[v_short];
                    END IF;
                    INSERT INTO orders (order_id, cart_id, idempotency_key, total_cents, currency, status, created_at)
                        VALUES (p_order_id, p_cart_id, p_key, v_total, p_currency, p_status, p_created_at)
                        RETURNING seq INTO v_seq;
                    INSERT INTO order_lines (order_seq, line_no, sku, quantity, unit_price_cents)
                        SELECT v_seq, t.n, t.sku, t.q, t.p
                        FROM unnest(v_skus, v_quantities, v_prices) WITH ORDINALITY AS t(sku, q, p, n);
                    DELETE FROM cart_lines c WHERE c.cart_id = p_cart_id;
                    RETURN QUERY
                        SELECT p_order_id, p_cart_id, v_total, p_currency, p_status, p_created_at, t.sku, t.q, t.p
                        FROM unnest(v_skus, v_quantities, v_prices) WITH ORDINALITY AS t(sku, q, p, n) ORDER BY t.n;
                    RETURN;
                END IF;
            END IF;
            IF v_cart <> p_cart_id THEN
                RAISE EXCEPTION USING ERRCODE = 'SHOP3', MESSAGE = 'idempotency key placed an order for another cart';
            END IF;
            RETURN QUERY
                SELECT o.order_id, o.cart_id, o.total_cents, o.currency, o.status, o.created_at, l.sku, l.quantity, l.unit_price_cents
                FROM orders o JOIN order_lines l ON l.order_seq = o.seq
                WHERE o.seq = v_seq ORDER BY l.line_no;
        END
        $fn$
        """

    // MARK: - Calling

    /// The call, its values as parameters.
    static func call(_ placement: OrderPlacement) -> PostgreSQLCall {
        PostgreSQLCall(
            sql: "SELECT * FROM shop_place_order($1, $2, $3, $4, $5, $6, $7)",
            arguments: [
                placement.cartId, placement.idempotencyKey, placement.makeOrderId(),
                OrderStamp.timestamp(placement.now()), placement.currency, Order.placedStatus, placement.actor,
            ]
        )
    }

    /// One row of the function's result: the order's header fields and one line.
    struct Row {
        let order: Order
        let line: CartLine

        init(_ row: PostgreSQLRow) {
            order = Order(
                orderId: row.text(0), cartId: row.text(1), lines: [], totalCents: row.int(2),
                currency: row.text(3), status: row.text(4), createdAt: row.text(5),
                cancelledAt: row.optionalText(9), cancelReason: row.optionalText(10)
            )
            line = CartLine(sku: row.text(6), quantity: row.int(7), unitPriceCents: row.int(8))
        }
    }

    /// The order the function returned.
    static func order(from rows: [Row]) throws(ShopError) -> Order {
        guard let header = rows.first?.order else { throw ShopError.storage("shop_place_order returned no order lines") }
        return Order(
            orderId: header.orderId, cartId: header.cartId, lines: rows.map(\.line), totalCents: header.totalCents,
            currency: header.currency, status: header.status, createdAt: header.createdAt,
            cancelledAt: header.cancelledAt, cancelReason: header.cancelReason
        )
    }

    // MARK: - Errors

    /// The rule an error raised by the function stands for, as the service reports it; nil for
    /// any other error (a conflict to retry, a cancel, a lost connection).
    static func shopError(_ error: PostgreSQLError, placement: OrderPlacement) -> ShopError? {
        switch error.sqlState {
        case "SHOP1":
            let fields = error.detail.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, let requested = Int(fields[0]), let available = Int(fields[1]) else {
                return .storage("shop_place_order: malformed out-of-stock detail")
            }
            return .outOfStock(sku: PostgreSQLText.unescaped(String(fields[2])), requested: requested, available: available)
        case "SHOP2":
            return .cartEmpty(cartId: placement.cartId)
        case "SHOP4":
            return .notFound(entity: "product", id: PostgreSQLText.unescaped(error.detail))
        case "SHOP3":
            return .idempotencyConflict(key: placement.idempotencyKey, cartId: placement.cartId)
        case "22003":
            // numeric_value_out_of_range: the only BIGINT arithmetic in the function that a
            // client's choices can push past 2^63 is the total (`v_total + quantity * price`, which
            // PostgreSQL checks and raises instead of wrapping), reached by an old cart with more
            // than `ShopLimits.maxCartLines` lines; the SQLite store's rule 2 reports it the same way.
            return .cartTotalOutOfRange(cartId: placement.cartId)
        default:
            return nil
        }
    }
}
