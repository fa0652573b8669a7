/// Reads CSV records (RFC 4180) from a byte source, one at a time, in constant memory: a 64 KiB
/// read buffer plus the current record (at most `CatalogLimits.maxRecordBytes`). A UTF-8 byte
/// order mark at the very start is skipped. The header is an ordinary record to this reader.
///
/// One thread; a value type (copying it copies its place in the input).
///
/// ```swift
/// var reader = CSVReader(source: FileDescriptorSource(fileDescriptor: 0))
/// while try reader.next() {
///     if let error = reader.syntaxError { print("line \(reader.line): \(error)") }
///     print(reader.fields.strings)
/// }
/// ```
package struct CSVReader<Source: ByteSource> {
    private var input: ByteSourceBuffer<Source>
    private var scanner: CSVScanner
    private var ended = false

    /// - Parameters:
    ///   - bufferSize: bytes asked of the source per read (at least 4).
    ///   - maxRecordBytes: a longer record ends the reading with `.recordTooLong`.
    package init(source: Source, bufferSize: Int = 64 << 10, maxRecordBytes: Int = CatalogLimits.maxRecordBytes) {
        input = ByteSourceBuffer(source: source, size: bufferSize)
        scanner = CSVScanner(maxRecordBytes: maxRecordBytes)
    }

    /// The fields of the record `next()` last returned.
    package var fields: CSVFields { scanner.fields }
    /// The 1-based line that record starts on.
    package var line: Int { scanner.recordLine }
    /// What is wrong with that record, if anything (its fields then hold what could be read).
    package var syntaxError: CSVSyntaxError? { scanner.error }
    /// Bytes taken from the source so far (for progress).
    package var bytesRead: Int { input.bytesRead }

    /// Reads the next record; false at the end of the input, and after an error that ends the
    /// reading (`CSVSyntaxError.endsReading`).
    ///
    /// - Throws: `ByteSourceError` if the source fails.
    package mutating func next() throws(ByteSourceError) -> Bool {
        if ended { return false }
        if let error = scanner.error, error.endsReading {
            ended = true
            return false
        }
        while true {
            if input.isConsumed {
                guard try input.refill() else {
                    ended = true
                    return scanner.finish()
                }
            }
            let position = input.position
            let found = input.withBytes { scanner.scan($0, from: position) }
            if let found {
                input.consume(to: found)
                return true
            }
            input.consume(to: input.filled)
        }
    }
}
