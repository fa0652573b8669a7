import RPCServer

// The shop's result types build their JSON directly (see `JSONValueConvertible`): members in
// declaration order, exactly as their `Codable` conformance writes them, which
// `ShopResultJSONTests` checks. The domain stays free of the engine; only this binding layer
// knows about `JSONValue`.

extension Product: JSONValueConvertible {
    public var jsonValue: JSONValue {
        ["sku": .string(sku), "name": .string(name), "description": .string(description), "category": .string(category),
         "priceCents": .int(Int64(priceCents)), "currency": .string(currency)]
    }
}

extension StockLevel: JSONValueConvertible {
    public var jsonValue: JSONValue { ["sku": .string(sku), "available": .int(Int64(available))] }
}

extension InventoryLevels: JSONValueConvertible {
    public var jsonValue: JSONValue { ["levels": .array(levels.map(\.jsonValue))] }
}

extension CartLine: JSONValueConvertible {
    public var jsonValue: JSONValue {
        ["sku": .string(sku), "quantity": .int(Int64(quantity)), "unitPriceCents": .int(Int64(unitPriceCents))]
    }
}

extension Cart: JSONValueConvertible {
    public var jsonValue: JSONValue {
        ["cartId": .string(cartId), "lines": .array(lines.map(\.jsonValue)), "totalCents": .int(Int64(totalCents)),
         "currency": .string(currency)]
    }
}

extension Order: JSONValueConvertible {
    public var jsonValue: JSONValue {
        ["orderId": .string(orderId), "cartId": .string(cartId), "lines": .array(lines.map(\.jsonValue)),
         "totalCents": .int(Int64(totalCents)), "currency": .string(currency), "status": .string(status),
         "createdAt": .string(createdAt)]
    }
}

extension ProductList: JSONValueConvertible {
    public var jsonValue: JSONValue { ["items": .array(items.map(\.jsonValue))] }
}

extension CatalogPage: JSONValueConvertible {
    public var jsonValue: JSONValue { page(items.map(\.jsonValue), nextCursor) }
}

extension OrderPage: JSONValueConvertible {
    public var jsonValue: JSONValue { page(items.map(\.jsonValue), nextCursor) }
}

/// `{items, nextCursor?}`: the cursor is omitted on the last page, as `Codable` omits a nil optional.
private func page(_ items: [JSONValue], _ nextCursor: String?) -> JSONValue {
    var object: JSONObject = ["items": .array(items)]
    if let nextCursor { object.append("nextCursor", .string(nextCursor)) }
    return .object(object)
}
