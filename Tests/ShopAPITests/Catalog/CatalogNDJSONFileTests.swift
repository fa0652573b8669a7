import XCTest
@testable import ShopAPI

/// `CatalogFileReader` on NDJSON: one object per line, members named as the CSV columns, and every
/// file-level error with its line (protocol.md, "Catalog files").
final class CatalogNDJSONFileTests: XCTestCase {
    func test_goodLines_giveRows_absentMembersNil_blankLinesSkipped() {
        let text = """
        {"sku":"A","name":"Mug \\"Big\\"","description":"","category":"kitchen","priceCents":1250,"currency":"USD","stock":7}

          \t
        {"stock":3,"sku":"B"}\r
        {"sku":"C","priceCents":12.0,"stock":1e2}
        """
        let (rows, errors) = readCatalog(text, format: .ndjson)
        XCTAssertTrue(errors.isEmpty, "\(errors)")
        XCTAssertEqual(rows, [
            CatalogRow(line: 1, sku: "A", name: "Mug \"Big\"", description: "", category: "kitchen", priceCents: 1250, currency: "USD", stock: 7),
            CatalogRow(line: 4, sku: "B", stock: 3),
            CatalogRow(line: 5, sku: "C", priceCents: 12, stock: 100),
        ])
    }

    func test_emptyFile_andByteOrderMark() {
        XCTAssertEqual(readCatalog("", format: .ndjson).rows, [])
        XCTAssertTrue(readCatalog("", format: .ndjson).errors.isEmpty)
        let (rows, errors) = readCatalog([0xEF, 0xBB, 0xBF] + Array("{\"sku\":\"A\"}".utf8), format: .ndjson)
        XCTAssertTrue(errors.isEmpty)
        XCTAssertEqual(rows, [CatalogRow(line: 1, sku: "A")])
    }

    func test_everyError_withItsLine() {
        let text = [
            #"{"sku":"A","name":"ok"}"#,                       // 1: good
            #"[{"sku":"B"}]"#,                                 // 2: not an object
            #"{"sku":"C""#,                                    // 3: not JSON
            #""just a string""#,                               // 4: not an object
            #"{"sku":"D","colour":"red","Stock":1}"#,          // 5: two unknown members
            #"{"name":"no sku"}"#,                             // 6: sku missing
            #"{"sku":"E","priceCents":12.5}"#,                 // 7: fraction
            #"{"sku":"F","priceCents":"12"}"#,                 // 8: string
            #"{"sku":"G","stock":true}"#,                      // 9: bool
            #"{"sku":"H","stock":-2}"#,                        // 10: negative
            #"{"sku":"I","priceCents":1e30}"#,                 // 11: beyond 64 bits
            #"{"sku":"J","priceCents":1000000000001}"#,        // 12: above the maximum
            #"{"sku":"K","name":null}"#,                       // 13: null
            #"{"sku":"L","name":5}"#,                          // 14: not a string
            #"{"sku":"A"}"#,                                   // 15: repeated
            #"{"sku":"","name":""}"#,                          // 16: empty sku and name
            #"{"sku":"M","currency":"usd","category":" x"}"#,  // 17: currency, category
            #"{"sku":"N","name":"a\u0000b"}"#,                 // 18: NUL
            #"{"sku":7}"#,                                     // 19: sku not a string
        ].joined(separator: "\n")
        let (rows, errors) = readCatalog(text, format: .ndjson)
        XCTAssertEqual(rows.map(\.sku), ["A"])
        let members = "sku, name, description, category, priceCents, currency, stock, handle, brand, status, option1Name, option1Value, option2Name, option2Value, option3Name, option3Value, price"
        XCTAssertEqual(errorLines(errors), [
            "2: line: not a JSON object; each line must be one object such as {\"sku\": \"…\", …}",
            "3: line: not valid JSON",
            "4: line: not a JSON object; each line must be one object such as {\"sku\": \"…\", …}",
            "5: line: unknown member \"Stock\" (did you mean stock?); the members are \(members)",
            "5: line: unknown member \"colour\"; the members are \(members)",
            "6: sku: missing; every line needs a sku",
            "7: priceCents: 12.5 is not an integer",
            "8: priceCents: not an integer",
            "9: stock: not an integer",
            "10: stock: -2 is negative",
            "11: priceCents: 1e+30 is above the maximum",
            "12: priceCents: 1000000000001 is above the maximum, 1000000000000",
            "13: name: null; leave the member out to keep the value",
            "14: name: not a string",
            "15: sku: \"A\" appears twice; first on line 1",
            "16: sku: empty",
            "16: name: empty",
            "17: category: \" x\" begins or ends with white space",
            "17: currency: \"usd\" is not three capital letters (an ISO 4217 code such as USD)",
            "18: name: contains a NUL character",
            "19: sku: not a string",
        ])
    }

    func test_memberGivenTwice_isAnError() {
        // JSONDecoder's container shows a repeated member once; the reader counts the members itself.
        let errors = readCatalog(#"{"sku":"A","stock":1,"stock":2}"# + "\n" + #"{"sku":"B","x":1,"x":2}"#, format: .ndjson).errors
        XCTAssertEqual(errorLines(errors), [
            "1: line: a member is given twice",
            "2: line: unknown member \"x\"; the members are sku, name, description, category, priceCents, currency, stock, handle, brand, status, option1Name, option1Value, option2Name, option2Value, option3Name, option3Value, price",
            "2: line: a member is given twice",
        ])
    }

    func test_colonsBracesAndEscapedQuotesInsideStrings_areNotMembers() {
        let (rows, errors) = readCatalog(#"{"sku":"a:b{[","name":"x\":y}","description":"\\","stock":0}"#, format: .ndjson)
        XCTAssertTrue(errors.isEmpty, "\(errors)")
        XCTAssertEqual(rows, [CatalogRow(line: 1, sku: "a:b{[", name: "x\":y}", description: "\\", stock: 0)])
    }

    func test_trailingCommaInAnObject_isAccepted_asJSONDecoderDoes() {
        let (rows, errors) = readCatalog(#"{"sku":"A","stock":1,}"#, format: .ndjson)
        XCTAssertTrue(errors.isEmpty)
        XCTAssertEqual(rows, [CatalogRow(line: 1, sku: "A", stock: 1)])
    }

    func test_invalidUTF8_isReportedWithItsLine() {
        let bytes = Array("{\"sku\":\"A\"}\n{\"sku\":\"B\",\"name\":\"".utf8) + [0xFF] + Array("\"}\n{\"sku\":\"C\"}\n".utf8)
        let (rows, errors) = readCatalog(bytes, format: .ndjson)
        XCTAssertEqual(rows.map(\.sku), ["A", "C"])
        XCTAssertEqual(errorLines(errors), ["2: line: invalid UTF-8" + CatalogFieldRules.encodingHint])
    }

    func test_tooLongLine_isReported_andTheNextLineIsRead() {
        let long = "{\"sku\":\"X\",\"description\":\"" + String(repeating: "d", count: CatalogLimits.maxRecordBytes) + "\"}"
        let (rows, errors) = readCatalog("{\"sku\":\"A\"}\n\(long)\n{\"sku\":\"B\"}\n", format: .ndjson)
        XCTAssertEqual(rows.map(\.sku), ["A", "B"])
        XCTAssertEqual(errorLines(errors), ["2: line: longer than \(CatalogLimits.maxRecordBytes) bytes"])
    }

    func test_chunkings_giveTheSameRowsAndErrors() {
        let text = Array("{\"sku\":\"A\",\"name\":\"x\\ny\"}\r\n\n{\"sku\":\"B\",\"stock\":-1}\n{\"sku\":\"C\",\"priceCents\":3}".utf8)
        let whole = readCatalog(text, format: .ndjson)
        XCTAssertEqual(whole.rows.map(\.sku), ["A", "C"])
        for chunks in [[1], [2, 5], [64]] {
            let chunked = readCatalog(text, format: .ndjson, chunkSizes: chunks)
            XCTAssertEqual(chunked.rows, whole.rows)
            XCTAssertEqual(chunked.errors, whole.errors)
        }
    }
}
