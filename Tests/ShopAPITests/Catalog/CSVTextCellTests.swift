import XCTest
@testable import ShopAPI

/// What CSV exports write for text (`CSVTextCell`): formula prefixes neutralised as OWASP's
/// CSV-injection guidance says, control characters replaced, and the catalog reader's inverse.
final class CSVTextCellTests: XCTestCase {
    func test_escaped_formulaLikeValues_getOneQuoteInFront_otherValuesAreUnchanged() {
        for value in ["=1+1", "+1 cable", "-10% sale", "@SUM(A1)", "\tindent", "\rcarriage", "'=x", "''", "'+"] {
            XCTAssertEqual(CSVTextCell.escaped(value), "'" + value, value)
        }
        for value in ["Mug", "", "'Tis the season", "'", "a=b", "SKU-0001", "José", "x-1", "🙂"] {
            XCTAssertEqual(CSVTextCell.escaped(value), value, value)
        }
    }

    func test_escaped_controlCharactersOtherThanTabLFCR_becomeReplacementCharacters() {
        XCTAssertEqual(CSVTextCell.escaped("a\u{1B}[31mb"), "a\u{FFFD}[31mb")
        XCTAssertEqual(CSVTextCell.escaped("nul\u{0}del\u{7F}c1\u{85}\u{9F}"), "nul\u{FFFD}del\u{FFFD}c1\u{FFFD}\u{FFFD}")
        XCTAssertEqual(CSVTextCell.escaped("two\nlines\r\n\tand a tab"), "two\nlines\r\n\tand a tab")
        XCTAssertEqual(CSVTextCell.escaped("=\u{7}"), "'=\u{FFFD}", "both rules at once")
        XCTAssertEqual(CSVTextCell.escaped("\u{A0}non-breaking"), "\u{A0}non-breaking", "U+00A0 is not a C1 control")
    }

    func test_restored_undoesEscaped_forEveryValueWithoutControlCharacters() {
        let values = ["=1+1", "+", "-", "@", "\t", "\r", "'", "''", "'''", "'=", "''=", "'Tis", "x", "", "-5", "'a", "== ok"]
        for value in values {
            XCTAssertEqual(CSVTextCell.restored(CSVTextCell.escaped(value)), value, value.debugDescription)
        }
        XCTAssertEqual(CSVTextCell.restored("'Tis"), "'Tis", "a quote before a letter is the value's own")
    }

    func test_recordWriter_csv_prefixesText_butNeverAnInteger() throws {
        var writer = RecordWriter(format: .csv, columns: ["actor", "delta"], sink: MemorySink())
        try writer.write("=HYPERLINK(\"http://x\")")
        try writer.write(-5)
        try writer.endRecord()
        try writer.finish()
        XCTAssertEqual(String(decoding: writer.sink.bytes, as: UTF8.self), "actor,delta\n\"'=HYPERLINK(\"\"http://x\"\")\",-5\n")
    }

    func test_recordWriter_ndjson_writesTheValueAsItIs() throws {
        var writer = RecordWriter(format: .ndjson, columns: ["actor"], sink: MemorySink())
        try writer.write("=1+1")
        try writer.endRecord()
        try writer.finish()
        XCTAssertEqual(String(decoding: writer.sink.bytes, as: UTF8.self), "{\"actor\":\"=1+1\"}\n")
    }

    func test_catalogCSV_roundTrip_ofFormulaLikeNames_givesEveryValueBack() throws {
        let products = ["=1+1", "-10% off", "@home", "'=x", "'Tis", "''"].enumerated().map { index, name in
            Product(sku: "S-\(index)", name: name, description: "+\(name)", category: "c", priceCents: index, currency: "USD")
        }
        var writer = CatalogProductWriter(format: .csv, sink: MemorySink())
        for product in products { try writer.write(product, stock: 1) }
        try writer.finish()
        let bytes = writer.sink.bytes
        var reader = CatalogFileReader(format: .csv, source: MemorySource(bytes))
        var rows: [CatalogRow] = []
        while let row = try reader.next() { rows.append(row) }
        XCTAssertTrue(reader.errors.isEmpty, "\(reader.errors)")
        XCTAssertEqual(rows.map(\.name), products.map(\.name as (Product) -> String?))
        XCTAssertEqual(rows.map(\.description), products.map(\.description as (Product) -> String?))
    }

    /// One check per character a spreadsheet may start a formula with (OWASP: `=`, `+`, `-`, `@`,
    /// TAB, CR): a value starting with it is exported behind one `'`, and so is the same value
    /// behind one or two quotes of its own, and each reads back exactly.
    func test_eachFormulaCharacter_isNeutralisedInTheExport_andReadsBackExactly() throws {
        for lead in ["=", "+", "-", "@", "\t", "\r"] {
            let values = [lead + "SUM(A1)", "'" + lead + "SUM(A1)", "''" + lead + "x", lead + "1"]
            let products = values.enumerated().map { index, value in
                // An identifier cannot hold TAB or CR: those go in the name and description only.
                let sku = lead == "\t" || lead == "\r" ? "S-\(index)" : "\(lead)S-\(index)"
                return Product(sku: sku, name: value, description: value, category: "c", priceCents: 1, currency: "USD")
            }
            var writer = CatalogProductWriter(format: .csv, sink: MemorySink())
            for product in products { try writer.write(product, stock: 1) }
            try writer.finish()
            let records = readCSVRecords(writer.sink.bytes).dropFirst()
            XCTAssertEqual(records.count, products.count)
            for (record, product) in zip(records, products) {
                XCTAssertEqual(record.fields[1], "'" + product.name, "\(lead.debugDescription): the name's cell starts with the quote")
                XCTAssertFalse(record.fields.prefix(4).contains { $0.first.map { "=+-@\t\r".contains($0) } ?? false },
                               "\(lead.debugDescription): no text cell starts a formula: \(record.fields)")
            }
            var reader = CatalogFileReader(format: .csv, source: MemorySource(writer.sink.bytes))
            var rows: [CatalogRow] = []
            while let row = try reader.next() { rows.append(row) }
            XCTAssertTrue(reader.errors.isEmpty, "\(lead.debugDescription): \(reader.errors)")
            XCTAssertEqual(rows.map(\.sku), products.map(\.sku), lead.debugDescription)
            XCTAssertEqual(rows.map(\.name), products.map(\.name as (Product) -> String?), lead.debugDescription)
            XCTAssertEqual(rows.map(\.description), products.map(\.description as (Product) -> String?), lead.debugDescription)
        }
    }

    func test_aValueThatReallyStartsWithAQuote_survivesTheRoundTrip() throws {
        for value in ["'", "''", "'''", "'Tis", "'x'", "' spaced"] {
            var writer = CatalogProductWriter(format: .csv, sink: MemorySink())
            try writer.write(Product(sku: "S", name: value, description: "", category: "c", priceCents: 1, currency: "USD"), stock: 1)
            try writer.finish()
            let read = readCatalog(writer.sink.bytes, format: .csv)
            XCTAssertTrue(read.errors.isEmpty, "\(value): \(read.errors)")
            XCTAssertEqual(read.rows.first?.name, value)
        }
    }
}
