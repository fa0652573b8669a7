import RPCServer
import ShopAPI

// The shop's results on the wire, each declared once (`DeclaredResult`): its members with what
// they mean, from which come its JSON Schema (`rpc.discover`, MCP `outputSchema`, the clients'
// types) and its JSON, written straight into the reply. The members and their order are those of
// the type's `Codable` conformance, which `ShopResultJSONTests` checks. The domain stays free of
// the engine; only this binding layer knows about `JSONOutput`.

extension Product: DeclaredResult, JSONWritable {
    static let title = "Product"
    static let summary = "One SKU of the catalog (a variant), with its product's fields and its options."
    static let fields: [ResultField<Product>] = [
        .string("sku", { $0.sku }, "The product's stock-keeping unit, its key."),
        .string("name", { $0.name }, "The product's name."),
        .string("description", { $0.description }, "What the product is; may be empty."),
        .string("category", { $0.category }, "The product's category."),
        .integer("priceCents", { $0.priceCents }, "The price in the currency's minor units (cents)."),
        .string("currency", { $0.currency }, "ISO 4217 code of the price's currency."),
        .string("handle", { $0.handle }, "The product this SKU is a variant of (catalog.product); its SKU for a product without variants."),
        .string("brand", { $0.brand }, "The product's brand; may be empty."),
        .array("options", { $0.options }, "This variant's option values, one per option name of its product; empty without options."),
    ]
    public func write(to json: inout JSONOutput) { json.write(self, as: Self.self) }
}

extension ProductOption: DeclaredResult, JSONWritable {
    static let title = "ProductOption"
    static let summary = "One option of a variant: its name and the variant's value."
    static let fields: [ResultField<ProductOption>] = [
        .string("name", { $0.name }, "The option's name (Size)."),
        .string("value", { $0.value }, "The variant's value (M)."),
    ]
    public func write(to json: inout JSONOutput) { json.write(self, as: Self.self) }
}

extension CatalogItem: DeclaredResult, JSONWritable {
    static let title = "CatalogItem"
    static let summary = "One product of a listing or search: its first variant's sku and price, the product's fields, its price range and its variants."
    static let fields: [ResultField<CatalogItem>] = [
        .string("sku", { $0.sku }, "The SKU of the product's first variant."),
        .string("name", { $0.name }, "The product's name."),
        .string("description", { $0.description }, "What the product is; may be empty."),
        .string("category", { $0.category }, "The product's category."),
        .integer("priceCents", { $0.priceCents }, "The first variant's price in the currency's minor units (cents)."),
        .string("currency", { $0.currency }, "ISO 4217 code of the prices' currency."),
        .string("handle", { $0.handle }, "The product's handle (catalog.product)."),
        .string("brand", { $0.brand }, "The product's brand; may be empty."),
        .integer("priceMinCents", { $0.priceMinCents }, "The lowest price of its variants."),
        .integer("priceMaxCents", { $0.priceMaxCents }, "The highest price of its variants."),
        .boolean("inStock", { $0.inStock }, "Whether any variant has a unit available."),
        .array("variants", { $0.variants }, "Every variant, in catalog order; the first is sku's."),
        .optionalObject("highlights", { $0.highlights }, "Where the query matched the name and description (catalog.search with highlight: true); absent otherwise."),
    ]
    public func write(to json: inout JSONOutput) { json.write(self, as: Self.self) }
}

extension CatalogItemHighlights: DeclaredResult, JSONWritable {
    static let title = "CatalogItemHighlights"
    static let summary = "The parts of an item's name and description a search matched, as UTF-16 offsets (as LSP and JavaScript count), sorted, not overlapping."
    static let fields: [ResultField<CatalogItemHighlights>] = [
        .array("name", { $0.name }, "Matched ranges of the name."),
        .array("description", { $0.description }, "Matched ranges of the description."),
    ]
    public func write(to json: inout JSONOutput) { json.write(self, as: Self.self) }
}

extension TextRange: DeclaredResult, JSONWritable {
    static let title = "TextRange"
    static let summary = "A range of UTF-16 code units: start included, end excluded."
    static let fields: [ResultField<TextRange>] = [
        .integer("start", { $0.start }, "Offset of the first code unit."),
        .integer("end", { $0.end }, "Offset after the last code unit."),
    ]
    public func write(to json: inout JSONOutput) { json.write(self, as: Self.self) }
}

extension VariantChoice: DeclaredResult, JSONWritable {
    static let title = "VariantChoice"
    static let summary = "One variant as a listing offers it."
    static let fields: [ResultField<VariantChoice>] = [
        .string("sku", { $0.sku }, "The variant's SKU (cart.add takes it)."),
        .array("options", { $0.options }, "Its option values, one per option name of the product."),
        .integer("priceCents", { $0.priceCents }, "Its price in the currency's minor units."),
        .boolean("inStock", { $0.inStock }, "Whether a unit is available."),
    ]
    public func write(to json: inout JSONOutput) { json.write(self, as: Self.self) }
}

extension ProductWithVariants: DeclaredResult, JSONWritable {
    static let title = "ProductWithVariants"
    static let summary = "A product with every variant of it and their stock."
    static let fields: [ResultField<ProductWithVariants>] = [
        .string("handle", { $0.handle }, "The product's handle."),
        .string("name", { $0.name }, "The product's name."),
        .string("description", { $0.description }, "What the product is; may be empty."),
        .string("category", { $0.category }, "The product's category."),
        .string("brand", { $0.brand }, "The product's brand; may be empty."),
        .strings("optionNames", { $0.optionNames }, "Its option names (0 to 3), in order."),
        .string("currency", { $0.currency }, "ISO 4217 code of the prices' currency."),
        .array("variants", { $0.variants }, "Every variant, in catalog order."),
    ]
    public func write(to json: inout JSONOutput) { json.write(self, as: Self.self) }
}

extension ProductVariant: DeclaredResult, JSONWritable {
    static let title = "ProductVariant"
    static let summary = "One variant of a product, with its stock."
    static let fields: [ResultField<ProductVariant>] = [
        .string("sku", { $0.sku }, "The variant's SKU."),
        .array("options", { $0.options }, "Its option values, one per option name of the product."),
        .integer("priceCents", { $0.priceCents }, "Its price in the currency's minor units."),
        .integer("available", { $0.available }, "Units available now."),
        .boolean("inStock", { $0.inStock }, "available > 0."),
    ]
    public func write(to json: inout JSONOutput) { json.write(self, as: Self.self) }
}

extension ProductCount: DeclaredResult, JSONWritable {
    static let title = "ProductCount"
    static let summary = "How many products a catalog query matched."
    static let fields: [ResultField<ProductCount>] = [
        .integer("count", { $0.count }, "The products matched (archived ones never)."),
    ]
    public func write(to json: inout JSONOutput) { json.write(self, as: Self.self) }
}

extension StockLevel: DeclaredResult, JSONWritable {
    static let title = "StockLevel"
    static let summary = "Units of one SKU available now."
    static let fields: [ResultField<StockLevel>] = [
        .string("sku", { $0.sku }, "The SKU."),
        .integer("available", { $0.available }, "Units available."),
        .flag("stale", { $0.isStale }, "Present (true) when the inventory service did not answer in time and this is its last known level."),
        .optionalInteger("ageMs", { $0.ageMs }, "How old a stale level is, in milliseconds; present with stale."),
    ]
    public func write(to json: inout JSONOutput) { json.write(self, as: Self.self) }
}

extension InventoryLevels: DeclaredResult, JSONWritable {
    static let title = "InventoryLevels"
    static let summary = "Levels of the SKUs asked for, in the order asked."
    static let fields: [ResultField<InventoryLevels>] = [
        .array("levels", { $0.levels }, "One level per SKU asked for, in request order."),
    ]
    public func write(to json: inout JSONOutput) { json.write(self, as: Self.self) }
}

extension CartLine: DeclaredResult, JSONWritable {
    static let title = "CartLine"
    static let summary = "One SKU of a cart or an order."
    static let fields: [ResultField<CartLine>] = [
        .string("sku", { $0.sku }, "The SKU."),
        .integer("quantity", { $0.quantity }, "Units, 1 to \(ShopLimits.maxLineQuantity)."),
        .integer("unitPriceCents", { $0.unitPriceCents }, "The unit price when the line was last added to (a cart) or ordered (an order)."),
    ]
    public func write(to json: inout JSONOutput) { json.write(self, as: Self.self) }
}

extension Cart: DeclaredResult, JSONWritable {
    static let title = "Cart"
    static let summary = "A cart's lines and total; a cart never written to is empty."
    static let fields: [ResultField<Cart>] = [
        .string("cartId", { $0.cartId }, "The cart."),
        .array("lines", { $0.lines }, "The lines, in the order their SKUs were first added."),
        .integer("totalCents", { $0.totalCents }, "The sum of quantity × unit price over the lines."),
        .string("currency", { $0.currency }, "ISO 4217 code of the store's currency."),
    ]
    public func write(to json: inout JSONOutput) { json.write(self, as: Self.self) }
}

extension Order: DeclaredResult, JSONWritable {
    static let title = "Order"
    static let summary = "A placed order: its lines and total never change; a cancel marks it cancelled."
    static let fields: [ResultField<Order>] = [
        .string("orderId", { $0.orderId }, "The order."),
        .string("cartId", { $0.cartId }, "The cart it was placed from."),
        .array("lines", { $0.lines }, "The lines as ordered."),
        .integer("totalCents", { $0.totalCents }, "The order's total."),
        .string("currency", { $0.currency }, "ISO 4217 code of the total's currency."),
        .string("status", { $0.status }, "placed or cancelled.", schema: Schemas.oneOf([Order.placedStatus, Order.cancelledStatus])),
        .string("createdAt", { $0.createdAt }, "When it was placed (ISO 8601, UTC).", schema: Schemas.dateTime),
        .optionalString("cancelledAt", { $0.cancelledAt }, "When it was cancelled; present once cancelled.", schema: Schemas.dateTime),
        .optionalString("cancelReason", { $0.cancelReason }, "The reason the cancel gave, if any."),
        .optionalString("customer", { $0.customer }, "The customer whose session placed it (--customer); absent for an order placed without one."),
    ]
    public func write(to json: inout JSONOutput) { json.write(self, as: Self.self) }
}

extension ProductSearchPage: DeclaredResult, JSONWritable {
    static let title = "SearchPage"
    static let summary = "One page of a search: products best first (or in the sort asked), the total, the next cursor, how the query was read and the facet counts asked for."
    static let fields: [ResultField<ProductSearchPage>] = [
        .array("items", { $0.items }, "The page's products, each with its variants."),
        .integer("total", { $0.total }, "How many products match the query and filters, in all: exact, unless totalIsEstimate."),
        .flag("totalIsEstimate", { $0.totalIsEstimate == true },
              "true when more than 500 products matched: total is then the index's count of the products having the words, up to 10 000, and pages, facets and sorts cover the ranked ones only (at most 1 000: the first 500 whose name has every word, and the first 500 of all, in catalog order); absent when total is exact."),
        .optionalString("nextCursor", { $0.nextCursor }, "Pass as cursor, with the same query, filters and sort, for the next page; absent on the last page."),
        .optionalString("readAs", { $0.readAs }, "The query as read after typo corrections (a \"did you mean\"); absent when nothing was corrected."),
        .optionalArray("corrections", { $0.corrections }, "Each word no product has and the word it was read as; absent when none."),
        .optionalStrings("droppedWords", { $0.droppedWords },
                         "Words left out because no product can match them, or because all the words together found fewer than 20 products (from the end, as Meilisearch does); absent when every word was used."),
        .optionalObject("facets", { $0.facets }, "The counts asked for with facets, over every match (the ranked ones when totalIsEstimate); absent when none was asked."),
    ]
    public func write(to json: inout JSONOutput) { json.write(self, as: Self.self) }
}

extension SearchSynonyms: DeclaredResult, JSONWritable {
    static let title = "SearchSynonyms"
    static let summary = "The owner's search synonyms, as set (the owner's spelling kept)."
    static let fields: [ResultField<SearchSynonyms>] = [
        .stringLists("groups", { $0.groups }, "Groups of words that find each other."),
        .array("rules", { $0.rules }, "One-way rules: input also finds each of its synonyms."),
    ]
    public func write(to json: inout JSONOutput) { json.write(self, as: Self.self) }
}

extension SearchSynonyms.Rule: DeclaredResult, JSONWritable {
    static let title = "SynonymRule"
    static let summary = "A one-way synonym rule."
    static let fields: [ResultField<SearchSynonyms.Rule>] = [
        .string("input", { $0.input }, "The word searched for."),
        .strings("synonyms", { $0.synonyms }, "The words it also finds."),
    ]
    public func write(to json: inout JSONOutput) { json.write(self, as: Self.self) }
}

extension SearchWordCorrection: DeclaredResult, JSONWritable {
    static let title = "SearchWordCorrection"
    static let summary = "A query word no product has, and the word it was read as."
    static let fields: [ResultField<SearchWordCorrection>] = [
        .string("word", { $0.word }, "The word as typed (folded: lower case, no accents)."),
        .string("readAs", { $0.readAs }, "The word it was read as."),
    ]
    public func write(to json: inout JSONOutput) { json.write(self, as: Self.self) }
}

extension ProductFacetCounts: DeclaredResult, JSONWritable {
    static let title = "FacetCounts"
    static let summary = "For each field asked in facets, its values among the matching products, most products first, then by value."
    static let fields: [ResultField<ProductFacetCounts>] = [
        .optionalArray("category", { $0.category }, "Categories and how many matching products each has; present when asked."),
        .optionalArray("brand", { $0.brand }, "Brands and how many matching products each has; present when asked (an empty brand is \"\")."),
    ]
    public func write(to json: inout JSONOutput) { json.write(self, as: Self.self) }
}

extension FacetValueCount: DeclaredResult, JSONWritable {
    static let title = "FacetValueCount"
    static let summary = "One value of a facet and how many matching products have it."
    static let fields: [ResultField<FacetValueCount>] = [
        .string("value", { $0.value }, "The value."),
        .integer("count", { $0.count }, "Matching products with it."),
    ]
    public func write(to json: inout JSONOutput) { json.write(self, as: Self.self) }
}

extension CatalogPage: DeclaredResult, JSONWritable {
    static let title = "ProductPage"
    static let summary = "One page of products, one entry each, in catalog order."
    static let fields: [ResultField<CatalogPage>] = [
        .array("items", { $0.items }, "The page's products, each with its variants."),
        .optionalString("nextCursor", { $0.nextCursor }, "Pass as cursor for the next page; absent on the last page."),
    ]
    public func write(to json: inout JSONOutput) { json.write(self, as: Self.self) }
}

extension OrderPage: DeclaredResult, JSONWritable {
    static let title = "OrderPage"
    static let summary = "One page of orders, newest first."
    static let fields: [ResultField<OrderPage>] = [
        .array("items", { $0.items }, "The page's orders."),
        .optionalString("nextCursor", { $0.nextCursor }, "Pass as cursor for the next page; absent on the last page."),
    ]
    public func write(to json: inout JSONOutput) { json.write(self, as: Self.self) }
}

/// Members in the order `shop-rpc import` prints them.
extension CatalogImportSummary: DeclaredResult, JSONWritable {
    static let title = "ImportSummary"
    static let summary = "What an import or upsert did, row by row."
    static let fields: [ResultField<CatalogImportSummary>] = [
        .integer("rows", { $0.rows }, "Rows (products) read."),
        .integer("created", { $0.created }, "Products that were new."),
        .integer("updated", { $0.updated }, "Products changed."),
        .integer("unchanged", { $0.unchanged }, "Products already as given."),
        .integer("archived", { $0.archived }, "Products taken out of the catalog (import --replace)."),
        .integer("stockSet", { $0.stockSet }, "Levels set."),
    ]
    public func write(to json: inout JSONOutput) { json.write(self, as: Self.self) }
}

extension ProductsArchived: DeclaredResult, JSONWritable {
    static let title = "ProductsArchived"
    static let summary = "How many products an archive took out of the catalog."
    static let fields: [ResultField<ProductsArchived>] = [
        .integer("archived", { $0.archived }, "Products archived by this call (one archived already counts nowhere)."),
    ]
    public func write(to json: inout JSONOutput) { json.write(self, as: Self.self) }
}
