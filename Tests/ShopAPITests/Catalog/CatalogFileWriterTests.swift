import XCTest
@testable import ShopAPI

/// `RecordWriter` and `CatalogProductWriter`: the bytes they write, and the writer → reader
/// round trip on generated rows with awkward text.
final class CatalogFileWriterTests: XCTestCase {
    private func written(_ format: CatalogFileFormat, columns: [String], _ body: (inout RecordWriter<MemorySink>) throws -> Void) -> String {
        var writer = RecordWriter(format: format, columns: columns, sink: MemorySink(), bufferSize: 64)
        try! body(&writer)
        try! writer.finish()
        return String(decoding: writer.sink.bytes, as: UTF8.self)
    }

    func test_csv_quotesOnlyWhenNeeded_LFLineEnds() {
        let csv = written(.csv, columns: ["a", "b", "c"]) { writer in
            for value in ["plain", " spaces ", "comma,", "quote\"", "line\nfeed", "cr\r", "", "é🙂", "12\" pizza"] {
                try writer.write(value)
                try writer.write(42)
                try writer.writeNull()
                try writer.endRecord()
            }
        }
        XCTAssertEqual(csv, """
        a,b,c
        plain,42,
         spaces ,42,
        "comma,",42,
        "quote\""",42,
        "line
        feed",42,
        "cr\r",42,
        ,42,
        é🙂,42,
        "12"" pizza",42,

        """)
    }

    func test_csv_anEmptyOnlyField_isQuoted_soItIsNotABlankLine() {
        let csv = written(.csv, columns: ["sku"]) { writer in
            try writer.write("")
            try writer.endRecord()
            try writer.writeNull()
            try writer.endRecord()
        }
        XCTAssertEqual(csv, "sku\n\"\"\n\"\"\n")
        XCTAssertEqual(readCSVRecords(csv).map(\.fields), [["sku"], [""], [""]])
    }

    func test_csv_aFieldStartingWithU_FEFF_isQuoted_soItIsNotTakenForAByteOrderMark() {
        // FuzzCSVReader's regression-leading-byte-order-mark-in-first-field: written unquoted as
        // the first field of a file, it read back without its first character.
        let csv = written(.csv, columns: ["\u{feff}sku", "b"]) { writer in
            try writer.write("\u{feff}x")
            try writer.write("y\u{feff}")
            try writer.endRecord()
        }
        XCTAssertEqual(csv, "\"\u{feff}sku\",b\n\"\u{feff}x\",y\u{feff}\n")
        XCTAssertEqual(readCSVRecords(csv).map(\.fields), [["\u{feff}sku", "b"], ["\u{feff}x", "y\u{feff}"]])
    }

    func test_csv_headerIsWrittenWithoutRecords() {
        XCTAssertEqual(written(.csv, columns: ["sku", "available"]) { _ in }, "sku,available\n")
        XCTAssertEqual(written(.ndjson, columns: ["sku", "available"]) { _ in }, "")
    }

    func test_ndjson_escapesAndLeavesOutNulls() {
        let ndjson = written(.ndjson, columns: ["sku", "n", "x"]) { writer in
            try writer.write("a\"b\\c\n\r\t\u{8}\u{c}\u{1}\u{1f}é🙂\u{7f}")
            try writer.write(-5)
            try writer.writeNull()
            try writer.endRecord()
            try writer.writeNull()
            try writer.writeNull()
            try writer.writeNull()
            try writer.endRecord()
        }
        XCTAssertEqual(ndjson, "{\"sku\":\"a\\\"b\\\\c\\n\\r\\t\\b\\f\\u0001\\u001fé🙂\u{7f}\",\"n\":-5}\n{}\n")
        let first = try! JSONSerialization.jsonObject(with: Data(ndjson.split(separator: "\n")[0].utf8)) as! [String: Any]
        XCTAssertEqual(first["sku"] as? String, "a\"b\\c\n\r\t\u{8}\u{c}\u{1}\u{1f}é🙂\u{7f}")
        XCTAssertEqual(first["n"] as? Int, -5)
    }

    func test_productWriter_columnsInOrder() {
        var writer = CatalogProductWriter(format: .csv, sink: MemorySink())
        try! writer.write(Product(sku: "A", name: "Mug", description: "d", category: "k", priceCents: 5, currency: "USD"), stock: 3)
        try! writer.finish()
        XCTAssertEqual(String(decoding: writer.sink.bytes, as: UTF8.self),
                       "sku,name,description,category,priceCents,currency,stock,handle,brand,status,"
                       + "option1Name,option1Value,option2Name,option2Value,option3Name,option3Value\nA,Mug,d,k,5,USD,3,A,,active,,,,,,\n")
    }

    func test_roundTrip_generatedRows_bothFormats_everyRowUnchanged() {
        for format in CatalogFileFormat.allCases {
            for seed in UInt64(1)...20 {
                let rows = generatedRows(seed: seed, count: 200)
                var writer = CatalogProductWriter(format: format, sink: MemorySink())
                for row in rows { try! writer.write(row) }
                try! writer.finish()
                let read = readCatalog(writer.sink.bytes, format: format, chunkSizes: [1 + Int(seed) * 37 % 500])
                XCTAssertTrue(read.errors.isEmpty, "\(format) seed \(seed): \(read.errors.report(file: "-").prefix(3))")
                XCTAssertEqual(read.rows.count, rows.count, "\(format) seed \(seed)")
                for (got, want) in zip(read.rows, rows) where !sameExceptLine(got, want) {
                    XCTFail("\(format) seed \(seed): wrote \(want), read \(got)")
                    break
                }
            }
        }
    }

    /// Rows whose every field is set, each valid, with text meant to break quoting and escaping.
    private func generatedRows(seed: UInt64, count: Int) -> [CatalogRow] {
        var text = AwkwardText(seed: seed)
        return (0..<count).map { index in
            var name = text.text(maxPieces: 6)
            if name.unicodeScalars.allSatisfy(\.properties.isWhitespace) { name += "n" }
            name = name.replacingOccurrences(of: "\u{0}", with: "")
            return CatalogRow(line: 0, sku: text.identifier(prefix: "S\(index)-"), name: name,
                              description: text.text(maxPieces: 12), category: text.identifier(prefix: "c"),
                              priceCents: text.next(below: 3) == 0 ? CatalogLimits.maxPriceCents : text.next(below: 1_000_000),
                              currency: ["USD", "EUR", "JPY"][text.next(below: 3)],
                              stock: text.next(below: 3) == 0 ? CatalogLimits.maxStock : text.next(below: 1000))
        }
    }

    private func sameExceptLine(_ a: CatalogRow, _ b: CatalogRow) -> Bool {
        var a = a
        a.line = b.line
        // Byte for byte: String == would call canonically equivalent text equal.
        return a == b && [a.sku, a.name!, a.description!, a.category!].map { Array($0.utf8) }
            == [b.sku, b.name!, b.description!, b.category!].map { Array($0.utf8) }
    }
}
