/// Reads CSV records (RFC 4180) from a byte source, one at a time, in constant memory: a 64 KiB
/// read buffer plus the current record (at most `CatalogLimits.maxRecordBytes`). A UTF-8 byte
/// order mark at the very start is skipped. The header is an ordinary record to this reader,
/// except that the separator may be chosen from it (`delimiter: nil`).
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
    /// Whether the delimiter is still to be chosen from the first bytes read.
    private var detectsDelimiter: Bool

    /// - Parameters:
    ///   - bufferSize: bytes asked of the source per read (at least 4).
    ///   - maxRecordBytes: a longer record ends the reading with `.recordTooLong`.
    ///   - delimiter: the field separator; nil: the one the first line uses most
    ///     (`CSVDelimiter.detected`, looking at the first buffer's worth of it).
    package init(source: Source, bufferSize: Int = 64 << 10, maxRecordBytes: Int = CatalogLimits.maxRecordBytes,
                 delimiter: CSVDelimiter? = .comma) {
        input = ByteSourceBuffer(source: source, size: bufferSize)
        scanner = CSVScanner(maxRecordBytes: maxRecordBytes)
        scanner.delimiter = (delimiter ?? .comma).byte
        detectsDelimiter = delimiter == nil
    }

    /// The field separator in use (the detected one, once the first record is read).
    package var delimiter: CSVDelimiter {
        CSVDelimiter.allCases.first { $0.byte == scanner.delimiter } ?? .comma
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
            if detectsDelimiter {
                detectsDelimiter = false
                // The whole first line, if the buffer holds it, however the source cuts its reads.
                try input.readAhead { bytes in bytes.contains { $0 == 0x0A || $0 == 0x0D } }
                scanner.delimiter = input.withBytes { CSVDelimiter.detected(inHeader: UnsafeBufferPointer(rebasing: $0[position...])) }.byte
            }
            let found = input.withBytes { scanner.scan($0, from: position) }
            if let found {
                input.consume(to: found)
                return true
            }
            input.consume(to: input.filled)
        }
    }
}
