import FuzzSupport
@testable import ShopAPI  // CSVFieldEncoding (the writer's quoting) is internal

/// libFuzzer entry for `CSVReader`, and for the catalog readers (CSV and NDJSON) and writer.
///
/// Input layout: byte 0 seeds the chunk sizes, byte 1 chooses the record limit (64 bytes, 4 KiB or
/// the default 1 MiB); the rest is the file. Oracle: no trap or hang; the same records (fields,
/// first line, syntax error) read all at once, byte by byte and in random chunks; every good
/// record with valid UTF-8 fields, written again with the CSV writer's quoting and read back,
/// gives the same fields; `CatalogFileReader`, as CSV and as NDJSON, gives the same rows and
/// errors however the file is cut, never a line past the file's last; its good rows written by
/// `CatalogProductWriter` read back unchanged (NDJSON always, CSV when every field is given, but
/// for the control characters a CSV export writes as U+FFFD, protocol.md section 9).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSVReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    var random = FuzzRandom(seed: UInt64(input.takeByte()))
    let limit = [64, 4096, CatalogLimits.maxRecordBytes][Int(input.takeByte() % 3)]
    let file = Array(input.rest)
    let chunks = (0..<8).map { _ in random.chunkSize() }

    let whole = records(file, chunkSizes: [], limit: limit)
    let chunked = records(file, chunkSizes: chunks, limit: limit)
    let byteByByte = records(file, chunkSizes: [1], limit: limit)
    fuzzCheck(chunked == whole, "chunks \(chunks) gave \(chunked); all at once gave \(whole)")
    fuzzCheck(byteByByte == whole, "byte by byte gave \(byteByByte); all at once gave \(whole)")

    // Line ends: LF, and CR not followed by LF (CR-only files); CRLF counts once, as its LF.
    let lastLine = 1 + file.indices.lazy.filter { index in
        file[index] == UInt8(ascii: "\n") || (file[index] == UInt8(ascii: "\r") && (index + 1 == file.count || file[index + 1] != UInt8(ascii: "\n")))
    }.count
    for record in whole {
        fuzzCheck(record.line >= 1 && record.line <= lastLine, "record on line \(record.line) of \(lastLine)")
    }
    checkRoundTrip(whole)

    for format in CatalogFileFormat.allCases {
        let catalogWhole = catalog(file, format: format, chunkSizes: [])
        let catalogChunked = catalog(file, format: format, chunkSizes: chunks)
        fuzzCheck(catalogChunked.rows == catalogWhole.rows && catalogChunked.errors == catalogWhole.errors,
                  "the \(format) catalog reader's rows or errors depend on the chunking \(chunks)")
        for row in catalogWhole.rows {
            fuzzCheck(row.line >= 1 && row.line <= lastLine, "row on line \(row.line) of \(lastLine)")
        }
        checkCatalogRoundTrip(catalogWhole.rows)
    }
    return 0
}

/// Good rows written by `CatalogProductWriter` read back as the same rows: as NDJSON always (a
/// field the row does not give is left out), as CSV when every row gives every field. `price`
/// (major units) is read only: the writer writes the exported columns.
private func checkCatalogRoundTrip(_ rows: [CatalogRow]) {
    let complete = rows.allSatisfy { row in
        row.name != nil && row.description != nil && row.category != nil && row.priceCents != nil && row.currency != nil && row.stock != nil
    }
    for format in CatalogFileFormat.allCases where format == .ndjson || complete {
        var writer = CatalogProductWriter(format: format, sink: MemorySink())
        for row in rows { try! writer.write(row) }
        try! writer.finish()
        let reread = catalog(writer.sink.bytes, format: format, chunkSizes: [])
        fuzzCheck(reread.errors.isEmpty, "\(format) export of good rows reads back with errors: \(reread.errors.report(file: "-"))")
        let same = reread.rows.count == rows.count && zip(reread.rows, rows).allSatisfy { got, wrote in
            var got = got
            got.line = wrote.line
            var wrote = wrote
            wrote.price = nil  // read only: exports write priceCents
            if format == .csv {
                wrote.name = wrote.name.map(keptByCSVExport)
                wrote.description = wrote.description.map(keptByCSVExport)
            }
            return got == wrote && Array(got.sku.utf8) == Array(wrote.sku.utf8) && got.name.map { Array($0.utf8) } == wrote.name.map { Array($0.utf8) }
                && got.description.map { Array($0.utf8) } == wrote.description.map { Array($0.utf8) }
                && got.category.map { Array($0.utf8) } == wrote.category.map { Array($0.utf8) }
        }
        fuzzCheck(same, "\(format) export then import changed the rows: wrote \(rows), read \(reread.rows)")
    }
}

/// A text value as a CSV export keeps it: control characters other than TAB, LF and CR (C0, DEL,
/// C1) become U+FFFD. Written here from protocol.md, not by calling the writer's code.
private func keptByCSVExport(_ value: String) -> String {
    var kept = String.UnicodeScalarView()
    for scalar in value.unicodeScalars {
        let replaced = (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r") || (0x7F...0x9F).contains(scalar.value)
        kept.append(replaced ? "\u{FFFD}" : scalar)
    }
    return String(kept)
}

private struct Record: Equatable, CustomStringConvertible {
    var line: Int
    var fields: [[UInt8]]
    var error: CSVSyntaxError?

    var description: String {
        "\(line): \(fields.map { String(decoding: $0, as: UTF8.self) })\(error.map { " !\($0)" } ?? "")"
    }
}

private func records(_ file: [UInt8], chunkSizes: [Int], limit: Int) -> [Record] {
    var reader = CSVReader(source: MemorySource(file, chunkSizes: chunkSizes), bufferSize: 256, maxRecordBytes: limit)
    var result: [Record] = []
    while (try? reader.next()) == true {
        let fields = reader.fields
        result.append(Record(line: reader.line, fields: (0..<fields.count).map { index in fields.withBytes(at: index) { Array($0) } },
                             error: reader.syntaxError))
        fuzzCheck(result.count <= file.count + 1, "more records than bytes")
    }
    return result
}

/// Writes every good record whose fields are all UTF-8 as the CSV writer would, reads the result
/// back, and requires the same fields.
private func checkRoundTrip(_ read: [Record]) {
    var expected: [[[UInt8]]] = []
    var written: [UInt8] = []
    for record in read where record.error == nil {
        let strings = record.fields.compactMap { String(validating: $0, as: UTF8.self) }
        guard strings.count == record.fields.count else { continue }
        for (index, field) in strings.enumerated() {
            if index > 0 { written.append(UInt8(ascii: ",")) }
            CSVFieldEncoding.append(field, onlyField: strings.count == 1, to: &written)
        }
        written.append(UInt8(ascii: "\n"))
        expected.append(record.fields)
    }
    let reread = records(written, chunkSizes: [], limit: 1 << 30)
    fuzzCheck(reread.allSatisfy { $0.error == nil }, "the writer's output has a syntax error: \(reread)")
    fuzzCheck(reread.map(\.fields) == expected,
              "write then read changed the records: wrote \(expected.count), read back \(reread)")
}

private func catalog(_ file: [UInt8], format: CatalogFileFormat, chunkSizes: [Int]) -> (rows: [CatalogRow], errors: CatalogFileErrors) {
    var reader = CatalogFileReader(format: format, source: MemorySource(file, chunkSizes: chunkSizes))
    var rows: [CatalogRow] = []
    while let row = try? reader.next() { rows.append(row) }
    return (rows, reader.errors)
}
