import RPCServer
import ShopAPI

// The shop's result types write their JSON straight into the reply (see `JSONWritable`): members
// in declaration order, exactly as their `Codable` conformance writes them, which
// `ShopResultJSONTests` checks (through `jsonValue`, the written text parsed). The domain stays
// free of the engine; only this binding layer knows about `JSONOutput`.

extension Product: JSONWritable {
    public func write(to json: inout JSONOutput) {
        json.beginObject()
        json.member("sku", sku)
        json.member("name", name)
        json.member("description", description)
        json.member("category", category)
        json.member("priceCents", priceCents)
        json.member("currency", currency)
        json.endObject()
    }
}

extension StockLevel: JSONWritable {
    public func write(to json: inout JSONOutput) {
        json.beginObject()
        json.member("sku", sku)
        json.member("available", available)
        if let ageMs {
            json.key("stale")
            json.bool(true)
            json.member("ageMs", ageMs)
        }
        json.endObject()
    }
}

extension InventoryLevels: JSONWritable {
    public func write(to json: inout JSONOutput) {
        json.beginObject()
        json.member("levels", array: levels)
        json.endObject()
    }
}

extension CartLine: JSONWritable {
    public func write(to json: inout JSONOutput) {
        json.beginObject()
        json.member("sku", sku)
        json.member("quantity", quantity)
        json.member("unitPriceCents", unitPriceCents)
        json.endObject()
    }
}

extension Cart: JSONWritable {
    public func write(to json: inout JSONOutput) {
        json.beginObject()
        json.member("cartId", cartId)
        json.member("lines", array: lines)
        json.member("totalCents", totalCents)
        json.member("currency", currency)
        json.endObject()
    }
}

extension Order: JSONWritable {
    public func write(to json: inout JSONOutput) {
        json.beginObject()
        json.member("orderId", orderId)
        json.member("cartId", cartId)
        json.member("lines", array: lines)
        json.member("totalCents", totalCents)
        json.member("currency", currency)
        json.member("status", status)
        json.member("createdAt", createdAt)
        json.member("cancelledAt", ifPresent: cancelledAt)
        json.member("cancelReason", ifPresent: cancelReason)
        json.endObject()
    }
}

extension ProductList: JSONWritable {
    public func write(to json: inout JSONOutput) {
        json.beginObject()
        json.member("items", array: items)
        json.endObject()
    }
}

/// `{items, nextCursor?}`: the cursor is omitted on the last page, as `Codable` omits a nil optional.
extension CatalogPage: JSONWritable {
    public func write(to json: inout JSONOutput) {
        json.beginObject()
        json.member("items", array: items)
        json.member("nextCursor", ifPresent: nextCursor)
        json.endObject()
    }
}

extension OrderPage: JSONWritable {
    public func write(to json: inout JSONOutput) {
        json.beginObject()
        json.member("items", array: items)
        json.member("nextCursor", ifPresent: nextCursor)
        json.endObject()
    }
}

/// `admin.products.upsert`'s answer: the import's summary, members in the order `shop-rpc import`
/// prints them.
extension CatalogImportSummary: JSONWritable {
    public func write(to json: inout JSONOutput) {
        json.beginObject()
        json.member("rows", rows)
        json.member("created", created)
        json.member("updated", updated)
        json.member("unchanged", unchanged)
        json.member("archived", archived)
        json.member("stockSet", stockSet)
        json.endObject()
    }
}

extension ProductsArchived: JSONWritable {
    public func write(to json: inout JSONOutput) {
        json.beginObject()
        json.member("archived", archived)
        json.endObject()
    }
}
