import SharedSupport  // JSONStringLiteral

// MARK: - StoreRow

/// One result row of either store's connection, read by column index (SQLite's statement,
/// PostgreSQL's row).
protocol StoreRow {
    func text(_ column: Int32) -> String
    func int(_ column: Int32) -> Int
    func int64(_ column: Int32) -> Int64
    /// The column as text; nil for NULL.
    func optionalText(_ column: Int32) -> String?
}

extension SQLiteStatement: StoreRow {}
extension PostgreSQLRow: StoreRow {}

/// The shop's rows as both stores select them: the column lists and how a row of each becomes a
/// domain value. One place, so the two stores cannot drift apart. Pure; any thread.
enum ShopRows {
    /// The columns `product` reads, from `products p`.
    static let productColumns = "p.sku, p.name, p.description, p.category, p.price_cents, p.currency, p.handle, p.brand, p.option_names, p.option_values"
    /// How many columns `productColumns` is.
    static let productColumnCount: Int32 = 10
    /// The columns `storedProduct` reads, from `products p` joined with `stock s` (a left join).
    static let storedProductColumns = "\(productColumns), p.status, p.seq, p.product_seq, coalesce(s.available, 0)"
    /// The columns `orderHeader` reads, from `orders`.
    static let orderColumns = "seq, order_id, cart_id, total_cents, currency, status, created_at, cancelled_at, cancel_reason"
    /// The columns `movement` reads, from `stock_ledger`.
    static let movementColumns = "seq, at, sku, delta, available_after, reason, order_id, source, actor"

    static func product<Row: StoreRow>(_ row: Row) -> Product {
        Product(sku: row.text(0), name: row.text(1), description: row.text(2), category: row.text(3), priceCents: row.int(4),
                currency: row.text(5), handle: row.text(6), brand: row.text(7), options: options(names: row.text(8), values: row.text(9)))
    }

    /// A variant with what the import looks at: `storedProductColumns`. A status this build does
    /// not know (none exists: the schema version guards against newer builds) reads as archived.
    static func storedProduct<Row: StoreRow>(_ row: Row) -> StoredProduct {
        let n = productColumnCount
        return StoredProduct(product: product(row), stock: row.int(n + 3), status: ProductStatus(rawValue: row.text(n)) ?? .archived,
                             seq: row.int64(n + 1), productSeq: row.int64(n + 2))
    }

    /// A variant as a listing offers it: `productColumns`, then the level.
    static func variantChoice<Row: StoreRow>(_ row: Row) -> (handle: String, choice: VariantChoice) {
        let variant = product(row)
        return (variant.handle, VariantChoice(sku: variant.sku, options: variant.options, priceCents: variant.priceCents,
                                              inStock: row.int(productColumnCount) > 0))
    }

    /// A listing's product: `productColumns`, then the level, then 1 or 0 for whether the
    /// product has other variants.
    static func listedProduct<Row: StoreRow>(_ row: Row) -> ListedProduct {
        let n = productColumnCount
        return ListedProduct(first: product(row), available: row.int(n), hasOtherVariants: row.int(n + 1) != 0)
    }

    /// `strings` as a JSON array of strings, to bind as one parameter (SQLite's `json_each`).
    static func jsonArray(_ strings: [String]) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        for (index, string) in strings.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONStringLiteral.append(string, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - Options

    /// What joins option names (and values) in their column: U+001F, which no option may hold.
    static let optionSeparator: Character = "\u{1F}"

    /// The stored text of option names or values.
    static func optionText(_ parts: [String]) -> String {
        parts.joined(separator: String(optionSeparator))
    }

    /// The names of `option_names`.
    static func optionNames(_ text: String) -> [String] {
        text.isEmpty ? [] : text.split(separator: optionSeparator, omittingEmptySubsequences: false).map(String.init)
    }

    /// The options of stored names and values (as many as both have).
    static func options(names: String, values: String) -> [ProductOption] {
        guard !names.isEmpty else { return [] }
        return zip(optionNames(names), optionNames(values)).map { ProductOption(name: $0, value: $1) }
    }

    /// A cart or order line: `sku, quantity, unit_price_cents`.
    static func line<Row: StoreRow>(_ row: Row) -> CartLine {
        CartLine(sku: row.text(0), quantity: row.int(1), unitPriceCents: row.int(2))
    }

    /// An order without its lines (`withLines` adds them).
    static func orderHeader<Row: StoreRow>(_ row: Row) -> StoredOrder {
        StoredOrder(sequence: row.int64(0), order: Order(
            orderId: row.text(1), cartId: row.text(2), lines: [], totalCents: row.int(3),
            currency: row.text(4), status: row.text(5), createdAt: row.text(6),
            cancelledAt: row.optionalText(7), cancelReason: row.optionalText(8)
        ))
    }

    /// A ledger row. A reason this build does not know (none exists: the schema version guards
    /// against files of newer builds) reads as `other`.
    static func movement<Row: StoreRow>(_ row: Row) -> StockMovement {
        StockMovement(
            sequence: row.int64(0), at: row.text(1), sku: row.text(2), delta: row.int(3), availableAfter: row.int(4),
            reason: StockMovement.Reason(rawValue: row.text(5)) ?? .other,
            orderId: row.optionalText(6), source: row.optionalText(7), actor: row.optionalText(8)
        )
    }

    /// `header` with its lines.
    static func withLines(_ header: StoredOrder, _ lines: [CartLine]) -> StoredOrder {
        let order = header.order
        return StoredOrder(sequence: header.sequence, order: Order(
            orderId: order.orderId, cartId: order.cartId, lines: lines, totalCents: order.totalCents,
            currency: order.currency, status: order.status, createdAt: order.createdAt,
            cancelledAt: order.cancelledAt, cancelReason: order.cancelReason
        ))
    }
}

// MARK: - Offset rows

extension ShopRows {
    /// `row` read from column `offset` on, so that a mapper like `product` can follow columns a
    /// query selects before its own.
    struct Offset<Row: StoreRow>: StoreRow {
        let row: Row
        let offset: Int32

        init(_ row: Row, by offset: Int32) {
            self.row = row
            self.offset = offset
        }

        func text(_ column: Int32) -> String { row.text(column + offset) }
        func int(_ column: Int32) -> Int { row.int(column + offset) }
        func int64(_ column: Int32) -> Int64 { row.int64(column + offset) }
        func optionalText(_ column: Int32) -> String? { row.optionalText(column + offset) }
    }
}

// MARK: - Orders from joined rows

extension ShopRows {
    /// Builds orders from rows of orders joined with their lines, ordered by order then line: an
    /// order is complete when a row of the next one (or the end) arrives. Holds one order at a time.
    struct OrderAssembler {
        private var current: StoredOrder?
        private var lines: [CartLine] = []

        /// Adds one row; returns the previous order when this row starts another.
        mutating func add(header: StoredOrder, line: CartLine) -> Order? {
            var finished: Order?
            if let current, current.sequence != header.sequence {
                finished = ShopRows.withLines(current, lines).order
                self.current = nil
            }
            if self.current == nil {
                self.current = header
                lines.removeAll(keepingCapacity: true)
            }
            lines.append(line)
            return finished
        }

        /// The last order, if any.
        mutating func finish() -> Order? {
            defer { current = nil }
            return current.map { ShopRows.withLines($0, lines).order }
        }
    }
}
