/// Writes stock ledger rows (`export ledger`): the columns seq, at, sku, delta, availableAfter,
/// reason, orderId, source, actor in that order, in CSV or NDJSON (`RecordWriter`'s rules: an
/// absent orderId, source or actor is an empty CSV cell, and no member in NDJSON). Streaming, in
/// constant memory. One thread; a value type.
public struct StockLedgerWriter<Sink: ByteSink> {
    /// The column names, as protocol.md names a ledger row's members.
    public static var columns: [String] {
        ["seq", "at", "sku", "delta", "availableAfter", "reason", "orderId", "source", "actor"]
    }

    private var writer: RecordWriter<Sink>

    public init(format: CatalogFileFormat, sink: Sink) {
        writer = RecordWriter(format: format, columns: Self.columns, sink: sink)
    }

    /// The sink; after `finish()` it has received every byte.
    public var sink: Sink { writer.sink }

    public mutating func write(_ movement: StockMovement) throws(ByteSinkError) {
        try writer.write(Int(movement.sequence))
        try writer.write(movement.at)
        try writer.write(movement.sku)
        try writer.write(movement.delta)
        try writer.write(movement.availableAfter)
        try writer.write(movement.reason.rawValue)
        try writeOptional(movement.orderId)
        try writeOptional(movement.source)
        try writeOptional(movement.actor)
        try writer.endRecord()
    }

    /// Writes out what is buffered.
    public mutating func finish() throws(ByteSinkError) {
        try writer.finish()
    }

    private mutating func writeOptional(_ value: String?) throws(ByteSinkError) {
        if let value { try writer.write(value) } else { try writer.writeNull() }
    }
}
