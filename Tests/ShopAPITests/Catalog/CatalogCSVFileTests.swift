import XCTest
@testable import ShopAPI

/// `CatalogFileReader` on CSV: the header, what each cell means, and every file-level error with
/// its line (protocol.md, "Catalog files").
final class CatalogCSVFileTests: XCTestCase {
    private let header = "sku,name,description,category,priceCents,currency,stock\n"

    func test_goodFile_givesEveryRow_withItsLine() {
        let (rows, errors) = readCatalog(header + "A-1,Mug,\"Big, \"\"blue\"\"\",kitchen,1250,USD,7\nA-2,Cup,,kitchen,0,EUR,0\n", format: .csv)
        XCTAssertTrue(errors.isEmpty, "\(errors)")
        XCTAssertEqual(rows, [
            CatalogRow(line: 2, sku: "A-1", name: "Mug", description: "Big, \"blue\"", category: "kitchen", priceCents: 1250, currency: "USD", stock: 7),
            CatalogRow(line: 3, sku: "A-2", name: "Cup", description: "", category: "kitchen", priceCents: 0, currency: "EUR", stock: 0),
        ])
    }

    func test_absentColumns_areNil_andColumnsMayComeInAnyOrder() {
        var reader = CatalogFileReader(format: .csv, source: MemorySource(Array("stock,sku\n5,A\n".utf8)))
        XCTAssertEqual(try reader.next(), CatalogRow(line: 2, sku: "A", stock: 5))
        XCTAssertEqual(reader.columns, [.stock, .sku])
        XCTAssertNil(try reader.next())
        XCTAssertTrue(reader.errors.isEmpty)
        XCTAssertEqual(reader.rowsRead, 1)
    }

    func test_headerOnly_isAGoodEmptyFile_butAnEmptyFileIsNot() {
        XCTAssertEqual(readCatalog(header, format: .csv).rows, [])
        XCTAssertTrue(readCatalog(header, format: .csv).errors.isEmpty)
        XCTAssertEqual(errorLines(readCatalog("", format: .csv).errors),
                       ["1: header: the file is empty; its first line must name the columns (sku, name, description, category, priceCents, currency, stock, handle, brand, status, option1Name, option1Value, option2Name, option2Value, option3Name, option3Value, price)"])
    }

    func test_bomAndCRLF_areAccepted() {
        let (rows, errors) = readCatalog([0xEF, 0xBB, 0xBF] + Array("sku,name\r\nA,\"x\r\ny\"\r\nB,z\r\n".utf8), format: .csv)
        XCTAssertTrue(errors.isEmpty)
        XCTAssertEqual(rows, [CatalogRow(line: 2, sku: "A", name: "x\r\ny"), CatalogRow(line: 4, sku: "B", name: "z")])
    }

    func test_headerErrors_unknownRepeatedAndMissingSku() {
        let errors = readCatalog("name,Colour,name,PriceCents,\nMug,red,Mug,5,\n", format: .csv).errors
        XCTAssertEqual(errorLines(errors), [
            "1: header: unknown column \"Colour\"; the columns are sku, name, description, category, priceCents, currency, stock, handle, brand, status, option1Name, option1Value, option2Name, option2Value, option3Name, option3Value, price",
            "1: header: column name appears twice",
            "1: header: unknown column \"PriceCents\" (did you mean priceCents?); the columns are sku, name, description, category, priceCents, currency, stock, handle, brand, status, option1Name, option1Value, option2Name, option2Value, option3Name, option3Value, price",
            "1: header: column 5 has no name; the columns are sku, name, description, category, priceCents, currency, stock, handle, brand, status, option1Name, option1Value, option2Name, option2Value, option3Name, option3Value, price",
            "1: header: no sku column; the columns are sku, name, description, category, priceCents, currency, stock, handle, brand, status, option1Name, option1Value, option2Name, option2Value, option3Name, option3Value, price (sku is required)",
        ])
    }

    /// C1 controls too: a CSV export writes them as U+FFFD, so a SKU holding one would come back
    /// from export → import as another SKU.
    func test_identifierWithAC1Control_isAnError_butAName_mayHoldOne() {
        let result = readCatalog("sku,name,category\nA\u{85},Mug,kitchen\nB,Mug,k\u{9B}\nC,Mug\u{9B},kitchen\n", format: .csv)
        XCTAssertEqual(errorLines(result.errors), ["2: sku: contains a control character", "3: category: contains a control character"])
        XCTAssertEqual(result.rows.map(\.sku), ["C"])
    }

    func test_unknownColumn_otherCellsAreStillChecked() {
        let errors = readCatalog("sku,colour,priceCents\nA,red,-1\n", format: .csv).errors
        XCTAssertEqual(errorLines(errors).count, 2)
        XCTAssertEqual(errorLines(errors).last, "2: priceCents: -1 is negative")
    }

    func test_everyValueError_withItsLine() {
        let long = String(repeating: "x", count: 65)
        let text = header + [
            "A,Mug,,kitchen,100,USD,1",                 // 2: good
            ",Mug,,kitchen,100,USD,1",                  // 3: empty sku
            "\(long),Mug,,kitchen,100,USD,1",           // 4: sku too long
            " B,Mug,,kitchen,100,USD,1",                // 5: white space
            "C,,,kitchen,100,USD,1",                    // 6: empty name
            "D,   ,,kitchen,100,USD,1",                 // 7: blank name
            "E,Mug,,,100,USD,1",                        // 8: empty category
            "F,Mug,,kitchen,12.5,USD,1",                // 9: not an integer
            "G,Mug,,kitchen,-3,USD,1",                  // 10: negative
            "H,Mug,,kitchen,1000000000001,USD,1",       // 11: above the maximum
            "I,Mug,,kitchen,,USD,1",                    // 12: empty price
            "J,Mug,,kitchen,100,usd,1",                 // 13: currency
            "K,Mug,,kitchen,100,USDX,1",                // 14: currency
            "L,Mug,,kitchen,100,USD,1000000001",        // 15: stock above the maximum
            "M,Mug,,kitchen,100,USD,+4",                // 16: stock not an integer
            "A,Mug,,kitchen,100,USD,1",                 // 17: A again (first on 2)
            "N,Mug,,kitchen,100,USD",                   // 18: 6 fields
            "\"O\"x,Mug,,kitchen,100,USD,1",            // 19: after closing quote
            "P,Mug,,kitchen,99999999999999999999999,USD,1",  // 20: huge
            "Q\u{7},Mug,,kitchen,100,USD,1",            // 21: control character
        ].joined(separator: "\n") + "\n"
        let (rows, errors) = readCatalog(text, format: .csv)
        XCTAssertEqual(rows.map(\.sku), ["A"])
        XCTAssertEqual(errorLines(errors), [
            "3: sku: empty",
            "4: sku: longer than 64 characters",
            "5: sku: \" B\" begins or ends with white space",
            "6: name: empty",
            "7: name: only white space",
            "8: category: empty",
            "9: priceCents: \"12.5\" is not an integer",
            "10: priceCents: -3 is negative",
            "11: priceCents: 1000000000001 is above the maximum, 1000000000000",
            "12: priceCents: empty; an integer is needed",
            "13: currency: \"usd\" is not three capital letters (an ISO 4217 code such as USD)",
            "14: currency: \"USDX\" is not three capital letters (an ISO 4217 code such as USD)",
            "15: stock: 1000000001 is above the maximum, 1000000000",
            "16: stock: \"+4\" is not an integer",
            "17: sku: \"A\" appears twice; first on line 2",
            "18: row: 6 fields, but the header has 7",
            "19: row: a closing quote must be followed by a comma or the end of the line (write a quote inside a quoted field as \"\")",
            "20: priceCents: 99999999999999999999999 is above the maximum, 1000000000000",
            "21: sku: contains a control character",
        ])
    }

    func test_lengthLimits_countCharactersNotBytes() {
        let sku = String(repeating: "é", count: 64)  // 128 bytes, 64 characters
        let name = String(repeating: "ü", count: 255)
        let (rows, errors) = readCatalog("sku,name\n\(sku),\(name)\n\(sku)x,\(name)x\n", format: .csv)
        XCTAssertEqual(rows.map(\.line), [2])
        XCTAssertEqual(errorLines(errors), ["3: sku: longer than 64 characters", "3: name: longer than 255 characters"])
    }

    func test_descriptionLimit_andNUL() {
        let description = String(repeating: "d", count: CatalogLimits.maxDescriptionLength)
        let (rows, errors) = readCatalog("sku,description,name\nA,\(description),x\nB,\(description)d,x\nC,a,b\u{0}c\n", format: .csv)
        XCTAssertEqual(rows.map(\.sku), ["A"])
        XCTAssertEqual(errorLines(errors), ["3: description: longer than 20000 characters", "4: name: contains a NUL character"])
    }

    func test_invalidUTF8_isReportedWithItsLineAndField() {
        let bytes = Array("sku,name\nA,ok\nB,\"two\nlines ".utf8) + [0xC3, 0x28] + Array("\"\n".utf8)
        let (rows, errors) = readCatalog(bytes, format: .csv)
        XCTAssertEqual(rows.map(\.sku), ["A"])
        XCTAssertEqual(errorLines(errors), ["3: name: invalid UTF-8" + CatalogFieldRules.encodingHint])
    }

    func test_unterminatedQuote_reportsTheRecordsLine() {
        let errors = readCatalog("sku,name\nA,x\nB,\"never closed\nC,y\nD,z\n", format: .csv).errors
        XCTAssertEqual(errorLines(errors), ["3: row: a quoted field is not closed before the end of the file"])
    }

    func test_skuRepeated_isFoundEvenWhenTheFirstRowHadAnotherError() {
        let errors = readCatalog("sku,priceCents\nA,x\nA,5\n", format: .csv).errors
        XCTAssertEqual(errorLines(errors), ["2: priceCents: \"x\" is not an integer", "3: sku: \"A\" appears twice; first on line 2"])
    }

    func test_skus_compareByteForByte() {
        // "é" precomposed and decomposed are different SKUs to the stores, so here too.
        let (rows, errors) = readCatalog("sku\n\u{e9}\ne\u{301}\n", format: .csv)
        XCTAssertTrue(errors.isEmpty)
        XCTAssertEqual(rows.count, 2)
    }

    func test_fiftyErrorsAreKept_theRestCounted() {
        let text = "sku,stock\n" + (1...130).map { "S\($0),-1" }.joined(separator: "\n")
        let errors = readCatalog(text, format: .csv).errors
        XCTAssertEqual(errors.shown.count, 50)
        XCTAssertEqual(errors.notShownCount, 80)
        XCTAssertEqual(errors.shown.last?.line, 51)
        let report = errors.report(file: "cat.csv")
        XCTAssertEqual(report.first, "cat.csv:2: stock: -1 is negative")
        XCTAssertEqual(report.last, "cat.csv: … and 80 more errors")
        XCTAssertEqual(report.count, 51)
    }

    func test_callerErrors_joinTheSameList() {
        var reader = CatalogFileReader(format: .csv, source: MemorySource(Array("sku\nA\n".utf8)))
        let row = try! reader.next()!
        reader.report(CatalogFileError(line: row.line, field: "name", message: "needed for a new product"))
        XCTAssertEqual(reader.errors.report(file: "-"), ["-:2: name: needed for a new product"])
    }

    func test_millionRowShapedRows_byteByByte_sameAsWhole() {
        var lines = [header.dropLast()]
        for index in 0..<50 {
            lines.append("SKU-\(index),\"Name, \"\"\(index)\"\"\",\"multi\nline\",cat,\(index * 100),USD,\(index)"[...])
        }
        let bytes = Array(lines.joined(separator: "\r\n").utf8)
        let whole = readCatalog(bytes, format: .csv)
        XCTAssertEqual(whole.rows.count, 50)
        XCTAssertEqual(whole.rows.last?.line, 2 + 49 * 2)
        XCTAssertEqual(readCatalog(bytes, format: .csv, chunkSizes: [1]).rows, whole.rows)
        XCTAssertEqual(readCatalog(bytes, format: .csv, chunkSizes: [3, 100, 7]).rows, whole.rows)
    }
}
