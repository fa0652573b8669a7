/// The RFC 4180 state machine under `CSVReader`: it takes the input in chunks of any size, looks
/// at each byte once, and collects one record at a time into `fields`, undoing the quoting. It
/// keeps its place between chunks, so the records do not depend on how the input was cut.
///
/// Rules (protocol.md, "Catalog files"): fields are separated by `delimiter` (`,`, `;` or TAB);
/// records end with LF, CRLF or a CR alone (old Mac spreadsheets), the last one may have none; a
/// field that starts with a quote is quoted and may hold delimiters, CR, LF and doubled quotes; a
/// quote anywhere else in a field is an ordinary character; a record with no bytes at all (a
/// blank line) is skipped. Lines are counted by line ends outside quotes and LF bytes inside
/// them, so `recordLine` is the 1-based line of the record's first byte. A value type; one thread.
struct CSVScanner {
    private enum State {
        case recordStart, fieldStart, unquoted, quoted, quoteInQuoted, carriageReturn
    }

    private static let quote = UInt8(ascii: "\""),
        lineFeed = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")

    private var state = State.recordStart
    /// The record being read; complete when `scan` returns an index or `finish` returns true.
    private(set) var fields = CSVFields()
    /// The line of the next byte.
    private(set) var line = 1
    /// The line the current record started on.
    private(set) var recordLine = 1
    /// What is wrong with the current record, if anything.
    private(set) var error: CSVSyntaxError?
    /// Whether the record's first field was quoted (so `""` is a record and a blank line is not).
    private var firstFieldQuoted = false
    private let maxRecordBytes: Int
    /// The byte between fields; set before the first record is scanned.
    var delimiter = CSVDelimiter.comma.byte

    init(maxRecordBytes: Int = CatalogLimits.maxRecordBytes) {
        self.maxRecordBytes = maxRecordBytes
    }

    /// Scans `bytes[start...]` until a record is complete, and returns the index just past it;
    /// returns nil when every byte was taken and the record goes on in the next chunk. A record
    /// over the length limit is returned at once, cut short, with `error` set.
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let end = bytes.count
        let delimiter = self.delimiter
        var index = start
        while index < end {
            switch state {
            case .recordStart:
                beginRecord()
            case .fieldStart:
                if base[index] == Self.quote {
                    index += 1
                    if fields.count == 0 { firstFieldQuoted = true }
                    state = .quoted
                } else {
                    state = .unquoted
                }
            case .unquoted:
                let first = index
                while index < end {
                    let byte = base[index]
                    if byte == delimiter || byte == Self.lineFeed || byte == Self.carriageReturn { break }
                    index += 1
                }
                if index > first, append(base + first, index - first) { return index }
                guard index < end else { return nil }
                let byte = base[index]
                index += 1
                if byte == delimiter {
                    endField()
                    state = .fieldStart
                } else if byte == Self.lineFeed {
                    line += 1
                    if endRecord() { return index }
                } else {
                    state = .carriageReturn
                }
            case .quoted:
                let first = index
                var lineFeeds = 0
                while index < end {
                    let byte = base[index]
                    if byte == Self.quote { break }
                    if byte == Self.lineFeed { lineFeeds += 1 }
                    index += 1
                }
                line += lineFeeds
                if index > first, append(base + first, index - first) { return index }
                guard index < end else { return nil }
                index += 1
                state = .quoteInQuoted
            case .quoteInQuoted:
                let byte = base[index]
                if byte == Self.quote {
                    index += 1
                    var doubled = Self.quote
                    if append(&doubled, 1) { return index }
                    state = .quoted
                } else if byte == delimiter {
                    index += 1
                    endField()
                    state = .fieldStart
                } else if byte == Self.lineFeed {
                    index += 1
                    line += 1
                    if endRecord() { return index }
                } else if byte == Self.carriageReturn {
                    index += 1
                    state = .carriageReturn
                } else {
                    if error == nil { error = .characterAfterClosingQuote }
                    state = .unquoted
                }
            case .carriageReturn:
                // CRLF, or a CR alone: either ends the record (this byte is the next one's).
                if base[index] == Self.lineFeed { index += 1 }
                line += 1
                if endRecord() { return index }
            }
        }
        return nil
    }

    /// At the end of the input: completes the last record and returns true, or returns false if
    /// there is none.
    mutating func finish() -> Bool {
        switch state {
        case .recordStart:
            return false
        case .quoted:
            if error == nil { error = .unterminatedQuote }
        case .carriageReturn:
            line += 1
            return endRecord()
        case .fieldStart, .unquoted, .quoteInQuoted:
            break
        }
        endField()
        state = .recordStart
        return true
    }

    /// Call before scanning for the next record (after `scan` returned an index).
    private mutating func beginRecord() {
        fields.removeAll()
        error = nil
        firstFieldQuoted = false
        recordLine = line
        state = .fieldStart
    }

    /// Appends to the current field; true if that made the record too long (then the record
    /// is complete, with `error` set).
    private mutating func append(_ pointer: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        fields.bytes.append(contentsOf: UnsafeBufferPointer(start: pointer, count: count))
        guard fields.bytes.count > maxRecordBytes else { return false }
        // Cut at the limit itself, not where this chunk happened to end, so the record is the same
        // however the input was cut.
        fields.bytes.removeLast(fields.bytes.count - maxRecordBytes)
        error = .recordTooLong(limit: maxRecordBytes)
        endField()
        state = .recordStart
        return true
    }

    private mutating func endField() {
        fields.ends.append(fields.bytes.count)
    }

    /// Ends the record at a line end; false (and the scan goes on) when it was a blank line.
    private mutating func endRecord() -> Bool {
        if fields.count == 0 && fields.bytes.isEmpty && !firstFieldQuoted && error == nil {
            state = .recordStart
            return false
        }
        endField()
        state = .recordStart
        return true
    }
}
