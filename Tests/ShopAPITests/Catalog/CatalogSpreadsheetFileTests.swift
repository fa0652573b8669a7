import XCTest
@testable import ShopAPI

/// Catalog CSV files as spreadsheets write them (issue #41): `;` and TAB separators, Windows-1252
/// and Latin-1 bytes, trailing all-empty rows, padded header cells, CR-only line ends, column
/// mapping and ignored columns, and the `price` column in major units. Reader level: what
/// `CatalogFileReader` returns and reports.
final class CatalogSpreadsheetFileTests: XCTestCase {
    private func read(_ bytes: [UInt8], encoding: TextEncoding = .utf8, options: CatalogReadOptions = CatalogReadOptions(),
                      chunkSizes: [Int] = []) -> (rows: [CatalogRow], errors: [String], warnings: [CatalogImportWarning]) {
        var reader = CatalogFileReader(format: .csv, source: TranscodingSource(MemorySource(bytes, chunkSizes: chunkSizes), encoding: encoding),
                                       options: options)
        var rows: [CatalogRow] = []
        while let row = try! reader.next() { rows.append(row) }
        return (rows, errorLines(reader.errors), reader.warnings)
    }

    private func read(_ text: String, options: CatalogReadOptions = CatalogReadOptions()) -> (rows: [CatalogRow], errors: [String], warnings: [CatalogImportWarning]) {
        read(Array(text.utf8), options: options)
    }

    private func price(_ text: String) -> MajorUnitPrice { try! MajorUnitPrice.parse(Array(text.utf8)).get() }

    // MARK: - Separators and line ends

    func test_semicolonFile_asExcelWritesItInEurope_isRead() {
        let file = read("sku;name;category;price;stock\r\nH-1;Hoodie, zip;apparel;45.00;3\r\nT-1;\"Tee; white\";apparel;17.99;0\r\n")
        XCTAssertEqual(file.errors, [])
        XCTAssertEqual(file.rows, [
            CatalogRow(line: 2, sku: "H-1", name: "Hoodie, zip", category: "apparel", stock: 3, price: price("45.00")),
            CatalogRow(line: 3, sku: "T-1", name: "Tee; white", category: "apparel", stock: 0, price: price("17.99")),
        ])
    }

    func test_tabFile_isRead_andAGivenDelimiterWins() {
        XCTAssertEqual(read("sku\tname\nA\tx,y\n").rows, [CatalogRow(line: 2, sku: "A", name: "x,y")])
        let given = read("sku;name\nA;B\n", options: CatalogReadOptions(delimiter: .comma))
        XCTAssertEqual(given.errors.first, "1: header: unknown column \"sku;name\"; the columns are \(CatalogColumn.acceptedList)")
    }

    func test_CROnlyLineEnds_areRead_withTheirLines() {
        let file = read("sku,name,stock\rA,x,1\rB,y,2\r")
        XCTAssertEqual(file.errors, [])
        XCTAssertEqual(file.rows.map(\.line), [2, 3])
        XCTAssertEqual(file.rows.map(\.stock), [1, 2])
    }

    func test_trailingEmptyRows_areSkipped_andNotCounted() {
        var reader = CatalogFileReader(format: .csv, source: MemorySource(Array("sku,name,stock\nA,x,1\n,,\n,,\n\"\",,\n".utf8)))
        var rows: [CatalogRow] = []
        while let row = try! reader.next() { rows.append(row) }
        XCTAssertTrue(reader.errors.isEmpty, "\(reader.errors)")
        XCTAssertEqual(rows.map(\.sku), ["A"])
        XCTAssertEqual(reader.rowsRead, 1)
        XCTAssertEqual(read("sku,name\n,x\n").errors, ["2: sku: empty"], "a row with one value is not empty")
    }

    // MARK: - Encodings

    func test_windows1252File_isReadWithTheEncoding_andWithoutIt_theErrorNamesIt() {
        // "Café crème" and "€5 Geschenkkarte" as Excel on Windows saves them.
        let bytes: [UInt8] = Array("sku;name\nA;Caf".utf8) + [0xE9] + Array(" cr".utf8) + [0xE8] + Array("me\nB;".utf8) + [0x80]
            + Array("5 Geschenkkarte \u{22}quoted\u{22}\n".utf8)
        let file = read(bytes, encoding: .windows1252)
        XCTAssertEqual(file.errors, [])
        XCTAssertEqual(file.rows.map(\.name), ["Café crème", "€5 Geschenkkarte \"quoted\""])
        XCTAssertEqual(read(bytes, encoding: .windows1252, chunkSizes: [1]).rows, file.rows, "transcoding does not depend on chunking")
        XCTAssertEqual(read(bytes).errors, [
            "2: name: invalid UTF-8 (if the file was saved by Excel or another Windows program, read it with --encoding windows-1252)",
            "3: name: invalid UTF-8 (if the file was saved by Excel or another Windows program, read it with --encoding windows-1252)",
        ])
    }

    func test_latin1_mapsEveryByteToTheSameCodePoint_windows1252_usesItsOwnHighTable() {
        let bytes: [UInt8] = Array("sku,name\nA,".utf8) + [0x80, 0x9F, 0xA0, 0xFF] + [0x0A]
        XCTAssertEqual(read(bytes, encoding: .latin1).rows.first?.name, "\u{80}\u{9F}\u{A0}ÿ")
        XCTAssertEqual(read(bytes, encoding: .windows1252).rows.first?.name, "€Ÿ\u{A0}ÿ")
        XCTAssertEqual(TextEncoding.windows1252.scalar(0x81), 0x81, "undefined in Windows-1252: the C1 control, as WHATWG maps it")
    }

    // MARK: - Header

    func test_paddedHeaderCells_areTrimmed_withAWarningEach() {
        let file = read("sku, name      ,\tstock\nA,x,1\n")
        XCTAssertEqual(file.errors, [])
        XCTAssertEqual(file.rows, [CatalogRow(line: 2, sku: "A", name: "x", stock: 1)])
        XCTAssertEqual(file.warnings.map(\.kind), [.trimmedHeader, .trimmedHeader])
        XCTAssertEqual(file.warnings.map(\.column), ["name", "stock"])
        XCTAssertEqual(file.warnings.first?.lines, [1])
    }

    func test_paddedHeaderCell_underStrict_isAnError() {
        let file = read("sku,name \nA,x\n", options: CatalogReadOptions(strict: true))
        XCTAssertEqual(file.errors, ["1: header: trimmedHeader: the header cell \"name \" has white space around its name, read as \"name\" (--strict)"])
        XCTAssertEqual(file.warnings, [])
    }

    func test_unknownColumn_isAnError_withTheHint_unlessIgnored() {
        XCTAssertEqual(read("sku,Name,Image Src\nA,x,y\n").errors, [
            "1: header: unknown column \"Name\" (did you mean name?); the columns are \(CatalogColumn.acceptedList)",
            "1: header: unknown column \"Image Src\"; the columns are \(CatalogColumn.acceptedList)",
        ])
        let ignored = read("sku,Image Src,Weight,\nA,y,1,\nB,z,2,\n", options: CatalogReadOptions(ignoreUnknown: true))
        XCTAssertEqual(ignored.errors, [])
        XCTAssertEqual(ignored.rows.map(\.sku), ["A", "B"])
        XCTAssertEqual(ignored.warnings.map(\.kind), [.ignoredColumn, .ignoredColumn, .ignoredColumn])
        XCTAssertEqual(ignored.warnings.map(\.column), ["Image Src", "Weight", "column 4"], "each listed once, not per row")
        XCTAssertEqual(ignored.warnings.map(\.count), [1, 1, 1])
    }

    func test_mapping_renamesTheFilesColumns_andCanSkipOne() throws {
        let mapping = try CatalogColumnMapping(parsing: "Variant SKU=sku, Title = name,Variant Price=price,Image Src=")
        let file = read("Variant SKU,Title,Variant Price,Image Src\nH-1,Hoodie,45,x.png\n", options: CatalogReadOptions(mapping: mapping))
        XCTAssertEqual(file.errors, [])
        XCTAssertEqual(file.rows, [CatalogRow(line: 2, sku: "H-1", name: "Hoodie", price: price("45"))])
        XCTAssertEqual(file.warnings.map(\.kind), [.ignoredColumn])
        XCTAssertEqual(file.warnings.map(\.column), ["Image Src"])
        XCTAssertEqual(read("Title,name\nx,y\n", options: CatalogReadOptions(mapping: mapping)).errors.first,
                       "1: header: column name appears twice (\"Title\" is mapped to it)")
    }

    func test_mappingText_isChecked() {
        func error(_ text: String) -> String? {
            do { _ = try CatalogColumnMapping(parsing: text); return nil } catch { return error.message }
        }
        XCTAssertNil(error("A=sku"))
        XCTAssertEqual(error("A"), "\"A\" is not NAME=column")
        XCTAssertEqual(error("=sku"), "\"=sku\" has no NAME before =")
        XCTAssertEqual(error("A=sku,A=name"), "\"A\" is mapped twice")
        XCTAssertEqual(error("A=sku,B=sku"), "two names are mapped to sku")
        XCTAssertEqual(error("A=Price"), "\"Price\" is not a column (did you mean price?); the columns are \(CatalogColumn.acceptedList)")
    }

    // MARK: - Prices

    func test_priceColumn_isReadAsText_exactly() {
        let file = read("sku,price\nA,17.99\nB,25\nC,45.00\nD,17.999\nE,1,5\nF,-1\n")
        XCTAssertEqual(file.rows.map(\.price), [price("17.99"), price("25"), price("45.00"), price("17.999")],
                       "the currency's decimals are the import's to check")
        XCTAssertEqual(file.errors, ["6: row: 3 fields, but the header has 2", "7: price: \"-1\" is negative"])
    }

    func test_bothPriceColumns_eachRowGivesOne() {
        let file = read("sku,price,priceCents\nA,17.99,\nB,,1799\nC,17.99,1799\nD,,\n")
        XCTAssertEqual(file.rows, [CatalogRow(line: 2, sku: "A", price: price("17.99")), CatalogRow(line: 3, sku: "B", priceCents: 1799),
                                   CatalogRow(line: 5, sku: "D")])
        XCTAssertEqual(file.errors, ["4: price: \(CatalogFieldRules.bothPrices)"])
        XCTAssertEqual(read("sku,price\nA,\n").errors, ["2: price: empty; a price such as 19.99 is needed"],
                       "with one price column, an empty cell is an error as before")
    }

    func test_ndjson_priceIsAStringOrAnInteger_andBothMembersAreAnError() {
        let text = """
            {"sku":"A","price":"17.99"}
            {"sku":"B","price":500}
            {"sku":"C","price":17.99}
            {"sku":"D","price":"17.99","priceCents":1799}
            {"sku":"E","Price":"1"}
            """
        let file = readCatalog(text, format: .ndjson)
        XCTAssertEqual(file.rows, [CatalogRow(line: 1, sku: "A", price: price("17.99")), CatalogRow(line: 2, sku: "B", price: price("500"))])
        XCTAssertEqual(errorLines(file.errors), [
            "3: price: a JSON number with decimals is not read exactly; write the price as a string, such as \"19.99\"",
            "4: price: \(CatalogFieldRules.bothPrices)",
            "5: line: unknown member \"Price\" (did you mean price?); the members are \(CatalogColumn.acceptedList)",
        ])
    }

    func test_ndjson_mappingAndIgnoredMembers() throws {
        var reader = CatalogFileReader(format: .ndjson, source: MemorySource(Array("{\"id\":\"A\",\"title\":\"x\",\"img\":1}\n{\"id\":\"B\",\"img\":2}\n".utf8)),
                                       options: CatalogReadOptions(mapping: try CatalogColumnMapping(parsing: "id=sku,title=name"), ignoreUnknown: true))
        var rows: [CatalogRow] = []
        while let row = try reader.next() { rows.append(row) }
        XCTAssertTrue(reader.errors.isEmpty, "\(reader.errors)")
        XCTAssertEqual(rows, [CatalogRow(line: 1, sku: "A", name: "x"), CatalogRow(line: 2, sku: "B")])
        XCTAssertEqual(reader.warnings.map(\.column), ["img"])
        XCTAssertEqual(reader.warnings.first?.count, 2)
        XCTAssertEqual(reader.warnings.first?.lines, [1, 2])
    }
}
