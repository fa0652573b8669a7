extension RecordWriter {
    /// Writes a product's stock as a record of `ExportSubject.stock`'s columns (sku, stock): what
    /// `export stock` writes, which imports back as a stock-only row.
    package mutating func writeStockLevel(sku: String, stock: Int) throws(ByteSinkError) {
        try write(sku)
        try write(stock)
        try endRecord()
    }

    /// Writes one record per line of `order`, in `ExportSubject.orders`' columns: the order's
    /// fields on each (its customer absent when it has none: an empty CSV cell, no NDJSON member), then the line's number (from
    /// 1), SKU, quantity and unit price.
    package mutating func writeOrderLines(_ order: Order) throws(ByteSinkError) {
        for (index, line) in order.lines.enumerated() {
            try write(order.orderId)
            try write(order.createdAt)
            try write(order.cartId)
            if let customer = order.customer { try write(customer) } else { try writeNull() }
            try write(order.status)
            try write(order.currency)
            try write(order.totalCents)
            try write(index + 1)
            try write(line.sku)
            try write(line.quantity)
            try write(line.unitPriceCents)
            try endRecord()
        }
    }

    /// Writes one stock ledger row as a record of `ExportSubject.ledger`'s columns; an absent
    /// order id, source or actor is a null field.
    package mutating func writeStockMovement(_ movement: StockMovement) throws(ByteSinkError) {
        try write(Int(movement.sequence))
        try write(movement.at)
        try write(movement.sku)
        try write(movement.delta)
        try write(movement.availableAfter)
        try write(movement.reason.rawValue)
        for value in [movement.orderId, movement.source, movement.actor] {
            if let value { try write(value) } else { try writeNull() }
        }
        try endRecord()
    }
}
