/// Writes products, or catalog rows, as a catalog file: the columns of `CatalogColumn.allCases` in
/// that order (sku, name, description, category, priceCents, currency, stock, handle, brand,
/// status, then the option names and values), in CSV or NDJSON (`RecordWriter`'s rules),
/// so that `CatalogFileReader` reads back exactly the rows written (the round trip). A product's
/// record is the one `export products` writes (both go through `RecordWriter.writeProduct`);
/// this type adds rows with missing fields, for the round-trip tests, the CSV fuzzer and the
/// catalog-file benchmark, which need a writer of whole catalog files without a store. Streaming,
/// in constant memory. One thread; a value type.
package struct CatalogProductWriter<Sink: ByteSink> {
    private var writer: RecordWriter<Sink>

    package init(format: CatalogFileFormat, sink: Sink) {
        writer = RecordWriter(format: format, columns: CatalogColumn.exported.map(\.rawValue), sink: sink)
    }

    /// The sink; after `finish()` it has received every byte.
    package var sink: Sink { writer.sink }

    /// Writes one variant with its product's status and its stock.
    package mutating func write(_ product: Product, status: ProductStatus = .active, stock: Int) throws(ByteSinkError) {
        try writer.writeProduct(product, status: status, stock: stock)
    }

    /// Writes one row; a nil field is an empty CSV cell or a member left out of the NDJSON object.
    /// Its `price` (major units, read only) is not written: the columns are `CatalogColumn.exported`.
    package mutating func write(_ row: CatalogRow) throws(ByteSinkError) {
        try writer.write(row.sku)
        if let name = row.name { try writer.write(name) } else { try writer.writeNull() }
        if let description = row.description { try writer.write(description) } else { try writer.writeNull() }
        if let category = row.category { try writer.write(category) } else { try writer.writeNull() }
        if let priceCents = row.priceCents { try writer.write(priceCents) } else { try writer.writeNull() }
        if let currency = row.currency { try writer.write(currency) } else { try writer.writeNull() }
        if let stock = row.stock { try writer.write(stock) } else { try writer.writeNull() }
        if let handle = row.handle { try writer.write(handle) } else { try writer.writeNull() }
        if let brand = row.brand { try writer.write(brand) } else { try writer.writeNull() }
        if let status = row.status { try writer.write(status.rawValue) } else { try writer.writeNull() }
        for index in 0..<ProductOption.maxOptions {
            if let name = row.optionNames?[safe: index] { try writer.write(name) } else { try writer.writeNull() }
            if let value = row.optionValues?[safe: index] { try writer.write(value) } else { try writer.writeNull() }
        }
        try writer.endRecord()
    }

    /// Writes out what is buffered.
    package mutating func finish() throws(ByteSinkError) {
        try writer.finish()
    }
}

extension RecordWriter {
    /// Writes one product with its stock as a record of a catalog file's columns
    /// (`CatalogColumn.exported`, in that order): what `export products` and `CatalogProductWriter`
    /// write, so that an export reads back as the rows it came from.
    package mutating func writeProduct(_ product: Product, status: ProductStatus, stock: Int) throws(ByteSinkError) {
        try write(product.sku)
        try write(product.name)
        try write(product.description)
        try write(product.category)
        try write(product.priceCents)
        try write(product.currency)
        try write(stock)
        try write(product.handle)
        try write(product.brand)
        try write(status.rawValue)
        for index in 0..<ProductOption.maxOptions {
            if index < product.options.count {
                try write(product.options[index].name)
                try write(product.options[index].value)
            } else {
                try writeNull()
                try writeNull()
            }
        }
        try endRecord()
    }
}

private extension Array {
    /// The element at `index`, or nil past the end.
    subscript(safe index: Int) -> Element? { index < count ? self[index] : nil }
}
