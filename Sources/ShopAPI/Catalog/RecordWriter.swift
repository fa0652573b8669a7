import SharedSupport  // JSONStringLiteral

/// Writes records of named fields as CSV or NDJSON, streaming, in constant memory: it fills a
/// buffer and hands it to its sink whenever it is full, so an export of any size holds one buffer
/// (64 KiB by default) and one field at a time.
///
/// - CSV (RFC 4180): a header row of the column names first (written even if no record follows),
///   fields separated by commas, every record (the header too) ended by LF. A field is quoted
///   only when it must be: when it holds a comma, a quote, CR or LF (quotes inside are doubled),
///   when it is the only field of its record and empty (so the record is not a blank line), and
///   when it starts with U+FEFF (so it is not taken for a byte order mark). A text field is
///   first made safe for spreadsheets and terminals (`CSVTextCell.escaped`: a quote in front of
///   a formula-like value, U+FFFD for a control character other than TAB, LF, CR); integers are
///   digits, never prefixed.
/// - NDJSON: each record one JSON object on one line, members in column order, strings escaped
///   as JSON requires (`"`, `\` and control characters; everything else as UTF-8), integers as
///   digits; a null field is left out of the object.
///
/// Fields are given in column order, then `endRecord()`. Call `finish()` at the end: bytes still
/// in the buffer are written then. One thread; a value type.
///
/// ```swift
/// var writer = RecordWriter(format: .csv, columns: ["sku", "available"], sink: FileDescriptorSink(fileDescriptor: 1))
/// for level in levels {
///     try writer.write(level.sku)
///     try writer.write(level.available)
///     try writer.endRecord()
/// }
/// try writer.finish()
/// ```
package struct RecordWriter<Sink: ByteSink> {
    package let format: CatalogFileFormat
    package let columns: [String]
    /// The sink; after `finish()` it has received every byte.
    package private(set) var sink: Sink
    private var buffer: [UInt8] = []
    private let bufferSize: Int
    /// NDJSON: `{"name":` for the first column and `,"name":` for the others, escaped once.
    private let memberPrefixes: [[UInt8]]
    private var fieldIndex = 0
    /// NDJSON: whether the current object has a member yet (null fields are left out).
    private var objectStarted = false

    package init(format: CatalogFileFormat, columns: [String], sink: Sink, bufferSize: Int = 64 << 10) {
        precondition(!columns.isEmpty, "a record needs at least one column")
        self.format = format
        self.columns = columns
        self.sink = sink
        self.bufferSize = max(bufferSize, 64)
        buffer.reserveCapacity(self.bufferSize + 1024)
        memberPrefixes = columns.map { name in
            var prefix: [UInt8] = []
            JSONStringLiteral.append(name, to: &prefix)
            prefix.append(UInt8(ascii: ":"))
            return prefix
        }
        if format == .csv {
            for (index, name) in columns.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                CSVFieldEncoding.append(name, onlyField: columns.count == 1, to: &buffer)
            }
            buffer.append(UInt8(ascii: "\n"))
        }
    }

    /// Writes the next field as text.
    package mutating func write(_ value: String) throws(ByteSinkError) {
        beginField()
        switch format {
        case .csv: CSVFieldEncoding.append(CSVTextCell.escaped(value), onlyField: columns.count == 1, to: &buffer)
        case .ndjson: JSONStringLiteral.append(value, to: &buffer)
        }
        try endField()
    }

    /// Writes the next field as an integer (digits, no quotes, in both formats).
    package mutating func write(_ value: Int) throws(ByteSinkError) {
        beginField()
        buffer.append(contentsOf: String(value).utf8)
        try endField()
    }

    /// Writes the next field as absent: an empty CSV cell; no member in NDJSON.
    package mutating func writeNull() throws(ByteSinkError) {
        precondition(fieldIndex < columns.count, "more fields than columns")
        if format == .csv {
            if fieldIndex > 0 { buffer.append(UInt8(ascii: ",")) }
            if columns.count == 1 { buffer.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: "\"")]) }
        }
        fieldIndex += 1
    }

    /// Ends the record; every column must have had its field.
    package mutating func endRecord() throws(ByteSinkError) {
        precondition(fieldIndex == columns.count, "a record of \(fieldIndex) fields for \(columns.count) columns")
        if format == .ndjson {
            if !objectStarted { buffer.append(UInt8(ascii: "{")) }
            buffer.append(UInt8(ascii: "}"))
            objectStarted = false
        }
        buffer.append(UInt8(ascii: "\n"))
        fieldIndex = 0
        if buffer.count >= bufferSize { try flush() }
    }

    /// Writes out what is buffered. The writer can be used again after it.
    package mutating func finish() throws(ByteSinkError) {
        precondition(fieldIndex == 0, "finish() inside a record")
        try flush()
    }

    private mutating func beginField() {
        precondition(fieldIndex < columns.count, "more fields than columns")
        switch format {
        case .csv:
            if fieldIndex > 0 { buffer.append(UInt8(ascii: ",")) }
        case .ndjson:
            buffer.append(objectStarted ? UInt8(ascii: ",") : UInt8(ascii: "{"))
            objectStarted = true
            buffer.append(contentsOf: memberPrefixes[fieldIndex])
        }
    }

    private mutating func endField() throws(ByteSinkError) {
        fieldIndex += 1
        if buffer.count >= bufferSize { try flush() }
    }

    private mutating func flush() throws(ByteSinkError) {
        guard !buffer.isEmpty else { return }
        var failure: ByteSinkError?
        buffer.withUnsafeBytes { bytes in
            do throws(ByteSinkError) { try sink.write(bytes) } catch { failure = error }
        }
        buffer.removeAll(keepingCapacity: true)
        if let failure { throw failure }
    }
}
