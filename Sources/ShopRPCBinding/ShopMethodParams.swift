import RPCServer
import ShopAPI

// The shop methods' params, each declared once (`DeclaredParams`): its members with what they
// mean and their bounds, from which come the JSON Schema (`rpc.discover`, MCP `inputSchema`, the
// clients' arguments), the direct reading from parsed JSON, `Decodable`, and the checks that make
// every violation a -32602 naming its member.

private let pageLimit = 1...ShopLimits.maxPageSize
private let limitDoc = "Most items to return, 1 to \(ShopLimits.maxPageSize) (default \(ShopLimits.defaultPageSize))."
private let cursorDoc = "The nextCursor of the page before; absent for the first page."

struct CatalogListParams: DeclaredParams {
    var cursor: String?
    var limit: Int?
    var category: String?
    static let rejectsUnknownMembers = true
    static let fields: [ParamField<Self>] = [
        .optionalIdentifier("cursor", \.cursor, cursorDoc),
        .optionalInteger("limit", \.limit, pageLimit, limitDoc),
        .optionalIdentifier("category", \.category, "Only products of this category."),
    ]
}

struct CatalogCountParams: DeclaredParams {
    var category: String?
    static let rejectsUnknownMembers = true
    static let fields: [ParamField<Self>] = [
        .optionalIdentifier("category", \.category, "Only products of this category."),
    ]
}

struct SkuParams: DeclaredParams {
    var sku = ""
    static let fields: [ParamField<Self>] = [
        .identifier("sku", \.sku, "The product's SKU."),
    ]
}

struct HandleParams: DeclaredParams {
    var handle = ""
    static let fields: [ParamField<Self>] = [
        .identifier("handle", \.handle, "The product's handle (a product without variants has its SKU as handle)."),
    ]
}

struct CatalogSearchParams: DeclaredParams {
    var query = ""
    var limit: Int?
    var cursor: String?
    var sort: String?
    var category: [String] = []
    var brand: [String] = []
    var priceMin: Int?
    var priceMax: Int?
    var inStock: Bool?
    var facets: [String] = []
    var highlight: Bool?
    static let rejectsUnknownMembers = true
    static let fields: [ParamField<Self>] = [
        .text("query", \.query, maxBytes: 1024,
              "What the shopper typed: words in any order, typos and plurals forgiven, the last word read as a prefix. Empty: browse every product the filters let through."),
        .optionalInteger("limit", \.limit, 1...ShopLimits.maxSearchResults,
                         "Most products per page, 1 to \(ShopLimits.maxSearchResults) (default \(ShopLimits.defaultSearchPageSize))."),
        .optionalIdentifier("cursor", \.cursor, "The nextCursor of the page before, with the same query, filters and sort; absent for the first page."),
        .optionalOneOf("sort", \.sort, ProductSearchSort.allCases.map(\.rawValue),
                       "relevance (default; catalog order when browsing), price-asc, price-desc (by the lowest variant price), newest (last added first) or name."),
        .identifierOrList("category", \.category, maxCount: ShopLimits.maxSearchFilterValues, "Only products of this category, or of one of these."),
        .identifierOrList("brand", \.brand, maxCount: ShopLimits.maxSearchFilterValues, "Only products of this brand, or of one of these."),
        .optionalInteger("priceMin", \.priceMin, atLeast: 0, "Only products with a variant costing at least this, in minor units (cents)."),
        .optionalInteger("priceMax", \.priceMax, atLeast: 0,
                         "Only products with a variant costing at most this, in minor units; with priceMin, one variant within both."),
        .optionalBoolean("inStock", \.inStock, "true: only products with a variant in stock; false: only products with none."),
        .optionalList("facets", \.facets, oneOf: ProductFacetField.allCases.map(\.rawValue),
                      "Count the matching products (all of them, not only this page) by these fields: category, brand."),
        .optionalBoolean("highlight", \.highlight, "true: each item says which parts of its name and description matched (UTF-16 offsets)."),
    ]

    /// The search these params ask for (after `validate()`).
    var request: ProductSearchRequest {
        ProductSearchRequest(
            query: query, sort: sort.flatMap(ProductSearchSort.init(rawValue:)) ?? .relevance,
            limit: limit ?? ShopLimits.defaultSearchPageSize, cursor: cursor,
            filters: ProductSearchFilters(categories: category, brands: brand, priceMinCents: priceMin, priceMaxCents: priceMax, inStock: inStock),
            facets: facets.compactMap(ProductFacetField.init(rawValue:)), highlights: highlight ?? false)
    }
}

struct InventoryCheckParams: DeclaredParams {
    var skus: [String] = []
    static let fields: [ParamField<Self>] = [
        .identifiers("skus", \.skus, count: 1...ShopLimits.maxSkusPerCheck, noun: "skus", "The SKUs to check, 1 to \(ShopLimits.maxSkusPerCheck)."),
    ]
}

private let cartDoc = "The cart (any identifier; a cart never written to is empty)."

struct CartParams: DeclaredParams {
    var cartId = ""
    static let fields: [ParamField<Self>] = [
        .identifier("cartId", \.cartId, cartDoc),
    ]
}

struct CartLineParams: DeclaredParams {
    var cartId = ""
    var sku = ""
    static let fields: [ParamField<Self>] = [
        .identifier("cartId", \.cartId, cartDoc),
        .identifier("sku", \.sku, "The SKU whose line to remove."),
    ]
}

struct CartAddParams: DeclaredParams {
    var cartId = ""
    var sku = ""
    var quantity = 0
    static let fields: [ParamField<Self>] = [
        .identifier("cartId", \.cartId, cartDoc),
        .identifier("sku", \.sku, "The SKU to add."),
        // Above the line maximum is the shop's own InvalidQuantity error, which names the limit.
        .integer("quantity", \.quantity, 1...ShopLimits.maxLineQuantity, checkingUpperBound: false,
                 "Units to add; the line then holds at most \(ShopLimits.maxLineQuantity)."),
    ]
}

struct PlaceOrderParams: DeclaredParams {
    var cartId = ""
    var idempotencyKey = ""
    static let fields: [ParamField<Self>] = [
        .identifier("cartId", \.cartId, "The cart to order."),
        .identifier("idempotencyKey", \.idempotencyKey, "The same key always answers the same order: retry with it."),
    ]
}

struct OrderParams: DeclaredParams {
    var orderId = ""
    static let fields: [ParamField<Self>] = [
        .identifier("orderId", \.orderId, "The order."),
    ]
}

struct OrdersListParams: DeclaredParams {
    var cartId: String?
    var cursor: String?
    var limit: Int?
    var customer: String?
    static let fields: [ParamField<Self>] = [
        .optionalIdentifier("cartId", \.cartId, "Only orders placed from this cart."),
        .optionalIdentifier("cursor", \.cursor, cursorDoc),
        .optionalInteger("limit", \.limit, pageLimit, limitDoc),
        .optionalIdentifier("customer", \.customer,
                            "Only this customer's orders (cartId is then this customer's cart). Operators only: a server with --customer, or without the admin scope, refuses it (-32602)."),
    ]
}

struct CancelOrderParams: DeclaredParams {
    var orderId = ""
    var reason: String?
    static let fields: [ParamField<Self>] = [
        .identifier("orderId", \.orderId, "The order to cancel."),
        .optionalText("reason", \.reason, bytes: 1...ShopLimits.maxCancelReasonBytes, "Why, recorded with the order."),
    ]
}

private let stockLevels = 0...ShopLimits.maxStock
/// Deltas an adjust may ask (zero excluded). Checked as a range, never as `abs(delta) <= max`:
/// `abs(-2^63)` cannot be represented and traps, and -2^63 is a value a client can send.
private let stockDeltas = -ShopLimits.maxStock...ShopLimits.maxStock

struct StockAdjustParams: DeclaredParams {
    var sku = ""
    var delta = 0
    var reason = ""
    /// `reason` as the shop's type; valid once `validate()` passed.
    var adjustmentReason: StockAdjustmentReason? { StockAdjustmentReason(rawValue: reason) }
    static let fields: [ParamField<Self>] = [
        .identifier("sku", \.sku, "The SKU."),
        .integer("delta", \.delta, stockDeltas, excluding: 0, "Units to add (positive) or take (negative)."),
        .oneOf("reason", \.reason, StockAdjustmentReason.allCases.map(\.rawValue), "Why, recorded on the stock ledger."),
    ]
}

struct StockSetParams: DeclaredParams {
    var sku = ""
    var available = 0
    var expected: Int?
    static let fields: [ParamField<Self>] = [
        .identifier("sku", \.sku, "The SKU."),
        .integer("available", \.available, stockLevels, "The level to set."),
        .optionalInteger("expected", \.expected, atLeast: 0, "Set only if the level is still this (compare-and-set)."),
    ]
}

private let productsPerCall = 1...ShopLimits.maxProductsPerCall

struct ProductsUpsertParams: DeclaredParams {
    /// Each a product object with the catalog file's members (`sku` and any of the others).
    var products: [JSONValue] = []
    static let fields: [ParamField<Self>] = [
        .objects("products", \.products, count: productsPerCall, noun: "products", itemSchema: Schemas.catalogRow, example: #"{"sku": …}"#,
                 "The products, as a catalog file's rows: sku, and any of name, description, category, priceCents or price, currency, stock, handle, brand, status, option1Name … option3Value."),
    ]

    /// The products as a catalog file's NDJSON, one per line in order, which the import's reader
    /// checks with the file's rules (so products[i] is the file's line i + 1).
    static func ndjson(_ products: [JSONValue]) -> [UInt8] {
        var bytes: [UInt8] = []
        for product in products {
            JSONWriter.write(product, into: &bytes)
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }
}

struct ProductsArchiveParams: DeclaredParams {
    var skus: [String] = []
    static let fields: [ParamField<Self>] = [
        .identifiers("skus", \.skus, count: productsPerCall, noun: "skus", "The SKUs of the products to archive (a variant's SKU archives its whole product)."),
    ]
}

struct NoParams: DeclaredParams {
    static let fields: [ParamField<Self>] = []
}

struct SearchSynonymsParams: DeclaredParams {
    var groups: [[String]] = []
    var rules: [SearchSynonyms.Rule] = []
    static let rejectsUnknownMembers = true
    static let fields: [ParamField<Self>] = [
        .optionalDecodable("groups", \.groups, empty: [], schema: [
            "type": "array", "maxItems": .int(Int64(SearchSynonyms.maxEntries)),
            "items": ["type": "array", "items": Schemas.string, "minItems": 2, "maxItems": .int(Int64(SearchSynonyms.maxWordsPerEntry))],
        ], "Groups of words that mean the same, each finding the others: [[\"tee\", \"t-shirt\"]]."),
        .optionalDecodable("rules", \.rules, empty: [], schema: [
            "type": "array", "maxItems": .int(Int64(SearchSynonyms.maxEntries)),
            "items": [
                "type": "object",
                "properties": ["input": Schemas.string,
                               "synonyms": ["type": "array", "items": Schemas.string, "minItems": 1, "maxItems": .int(Int64(SearchSynonyms.maxWordsPerEntry))]],
                "required": ["input", "synonyms"],
            ],
        ], "One-way rules: a search for input also finds each of its synonyms, not the other way: [{\"input\": \"laptop\", \"synonyms\": [\"notebook\"]}]."),
    ]

    var synonyms: SearchSynonyms { SearchSynonyms(groups: groups, rules: rules) }

    func validateTogether() throws(RPCError) {
        if let problem = synonyms.firstProblem { throw .invalidParams("'\(problem.member)': \(problem.message)", field: problem.member) }
    }
}
