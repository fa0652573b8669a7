import FuzzSupport
@testable import ShopAPI  // CSVFieldEncoding (the writer's quoting) is internal

/// libFuzzer entry for `CSVReader` and the catalog CSV reader on top of it.
///
/// Input layout: byte 0 seeds the chunk sizes, byte 1 chooses the record limit (64 bytes, 4 KiB or
/// the default 1 MiB); the rest is the file. Oracle: no trap or hang; the same records (fields,
/// first line, syntax error) read all at once, byte by byte and in random chunks; every good
/// record with valid UTF-8 fields, written again with the CSV writer's quoting and read back,
/// gives the same fields; `CatalogFileReader` gives the same rows and errors however the file
/// is cut, and a row's line is never past the file's last line.
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

    let lastLine = 1 + file.lazy.filter { $0 == UInt8(ascii: "\n") }.count
    for record in whole {
        fuzzCheck(record.line >= 1 && record.line <= lastLine, "record on line \(record.line) of \(lastLine)")
    }
    checkRoundTrip(whole)

    let catalogWhole = catalog(file, chunkSizes: [])
    let catalogChunked = catalog(file, chunkSizes: chunks)
    fuzzCheck(catalogChunked.rows == catalogWhole.rows && catalogChunked.errors == catalogWhole.errors,
              "the catalog reader's rows or errors depend on the chunking \(chunks)")
    for row in catalogWhole.rows {
        fuzzCheck(row.line >= 2 && row.line <= lastLine, "row on line \(row.line) of \(lastLine)")
    }
    return 0
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

private func catalog(_ file: [UInt8], chunkSizes: [Int]) -> (rows: [CatalogRow], errors: CatalogFileErrors) {
    var reader = CatalogFileReader(format: .csv, source: MemorySource(file, chunkSizes: chunkSizes))
    var rows: [CatalogRow] = []
    while let row = try? reader.next() { rows.append(row) }
    return (rows, reader.errors)
}
