import XCTest
@testable import ShopAPI

/// `CSVReader`: RFC 4180 records, line numbers, syntax errors, and independence from chunking.
final class CSVReaderTests: XCTestCase {
    private func record(_ line: Int, _ fields: [String], _ error: CSVSyntaxError? = nil) -> CSVTestRecord {
        CSVTestRecord(line: line, fields: fields, error: error)
    }

    func test_plainRecords_LFAndCRLF_lastLineWithoutEnd() {
        XCTAssertEqual(readCSVRecords("a,b,c\n1,2,3\r\nx,,z"), [
            record(1, ["a", "b", "c"]), record(2, ["1", "2", "3"]), record(3, ["x", "", "z"]),
        ])
    }

    func test_quotedFields_holdCommasDoubledQuotesAndNewlines_andCountTheirLines() {
        let text = "sku,name\n\"S,1\",\"Bob's \"\"Best\"\" Mug\"\n\"S2\",\"two\nlines\r\nthree\"\nS3,after\n"
        XCTAssertEqual(readCSVRecords(text), [
            record(1, ["sku", "name"]),
            record(2, ["S,1", "Bob's \"Best\" Mug"]),
            record(3, ["S2", "two\nlines\r\nthree"]),
            record(6, ["S3", "after"]),
        ])
    }

    func test_quoteInsideAnUnquotedField_isAnOrdinaryCharacter() {
        XCTAssertEqual(readCSVRecords("12\" pizza,a\"b\"\n"), [record(1, ["12\" pizza", "a\"b\""])])
    }

    func test_spacesAroundFields_areKept() {
        XCTAssertEqual(readCSVRecords(" a , b \n"), [record(1, [" a ", " b "])])
    }

    func test_byteOrderMark_atTheStart_isSkipped_elsewhereKept() {
        XCTAssertEqual(readCSVRecords([0xEF, 0xBB, 0xBF] + Array("sku\nA\n".utf8)), [record(1, ["sku"]), record(2, ["A"])])
        XCTAssertEqual(readCSVRecords(Array("sku\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("A\n".utf8)),
                       [record(1, ["sku"]), record(2, ["\u{feff}A"])])
    }

    func test_byteOrderMark_fedByteByByte_isSkipped() {
        XCTAssertEqual(readCSVRecords([0xEF, 0xBB, 0xBF] + Array("x\n".utf8), chunkSizes: [1]), [record(1, ["x"])])
        XCTAssertEqual(readCSVRecords([0xEF, 0xBB], chunkSizes: [1]), [record(1, ["\u{FFFD}"])], "a cut-off mark is content")
    }

    func test_blankLines_areSkipped_butAQuotedEmptyFieldIsARecord() {
        XCTAssertEqual(readCSVRecords("a\n\n\r\nb\n\"\"\n\n"), [record(1, ["a"]), record(4, ["b"]), record(5, [""])])
    }

    func test_trailingComma_givesAnEmptyLastField() {
        XCTAssertEqual(readCSVRecords("a,\n,\n"), [record(1, ["a", ""]), record(2, ["", ""])])
    }

    func test_emptyInput_andOnlyABlankLine_giveNoRecords() {
        XCTAssertEqual(readCSVRecords(""), [])
        XCTAssertEqual(readCSVRecords("\n\r\n"), [])
        XCTAssertEqual(readCSVRecords([0xEF, 0xBB, 0xBF]), [])
    }

    func test_unterminatedQuote_isReportedOnTheRecordsFirstLine_andEndsReading() {
        XCTAssertEqual(readCSVRecords("a,b\n1,\"open\nmore\n"), [
            record(1, ["a", "b"]), record(2, ["1", "open\nmore\n"], .unterminatedQuote),
        ])
    }

    func test_characterAfterClosingQuote_isReported_andReadingGoesOn() {
        XCTAssertEqual(readCSVRecords("\"a\"b,c\nd,e\n"), [
            record(1, ["ab", "c"], .characterAfterClosingQuote), record(2, ["d", "e"]),
        ])
    }

    func test_CROnlyLineEnds_endRecords_andCountLines() {
        XCTAssertEqual(readCSVRecords("a,b\r1,2\r\r3,4\r"), [record(1, ["a", "b"]), record(2, ["1", "2"]), record(4, ["3", "4"])])
        XCTAssertEqual(readCSVRecords("a\rb,c\nd\n"), [record(1, ["a"]), record(2, ["b", "c"]), record(3, ["d"])])
        XCTAssertEqual(readCSVRecords("a\r"), [record(1, ["a"])])
        XCTAssertEqual(readCSVRecords("\"q\r\"\rb\r"), [record(1, ["q\r"]), record(2, ["b"])], "a CR in quotes is content")
    }

    func test_CROnlyLineEnds_fedByteByByte_sameAsWhole() {
        let bytes = Array("sku,name\r\"A\",x\rB,y\r\rC,z".utf8)
        XCTAssertEqual(readCSVRecords(bytes, chunkSizes: [1]), readCSVRecords(bytes))
        XCTAssertEqual(readCSVRecords(bytes).count, 4)
    }

    func test_delimiter_isDetectedFromTheHeader_orGiven() {
        func read(_ text: String, _ delimiter: CSVDelimiter?, chunkSizes: [Int] = []) -> (CSVDelimiter, [[String]]) {
            var reader = CSVReader(source: MemorySource(Array(text.utf8), chunkSizes: chunkSizes), delimiter: delimiter)
            var records: [[String]] = []
            while try! reader.next() { records.append(reader.fields.strings) }
            return (reader.delimiter, records)
        }
        XCTAssertEqual(read("sku;name;price\nA;x,y;1,5\n", nil).1, [["sku", "name", "price"], ["A", "x,y", "1,5"]])
        XCTAssertEqual(read("sku;name;price\nA;x,y;1,5\n", nil, chunkSizes: [1]).0, .semicolon, "the whole header line is looked at")
        XCTAssertEqual(read("sku\tname\nA\tB\n", nil).1, [["sku", "name"], ["A", "B"]])
        XCTAssertEqual(read("sku,name;x\n", nil).0, .comma, "a tie is a comma")
        XCTAssertEqual(read("\"a;b;c\",d\n", nil).0, .comma, "separators in quotes do not count")
        XCTAssertEqual(read("sku\n", nil).0, .comma)
        XCTAssertEqual(read("a;b,c\n", .comma).1, [["a;b", "c"]])
        // FuzzCSVReader's regression-delimiter-detection-past-an-open-quote: a quote left open in
        // the header made the detector read on into the next lines, as far as had been read.
        let openQuote = "a\"b,c\n\"x;;;;;;\n"
        XCTAssertEqual(read(openQuote, nil).0, .comma, "only the first line is looked at")
        XCTAssertEqual(read(openQuote, nil, chunkSizes: [6, 1]).0, .comma)
        XCTAssertEqual(read("a,b;c\n", .semicolon).1, [["a,b", "c"]])
    }

    func test_recordTooLong_isReportedAndEndsReading() {
        let records = readCSVRecords(Array("a\n\"\(String(repeating: "x", count: 100))\nb\n".utf8), maxRecordBytes: 50)
        XCTAssertEqual(records.count, 2)
        XCTAssertEqual(records[1].line, 2)
        XCTAssertEqual(records[1].error, .recordTooLong(limit: 50))
    }

    func test_recordTooLong_isCutAtTheLimit_howeverTheInputIsCut() {
        // FuzzCSVReader's regression-record-too-long-cut-by-chunking: the record was cut where the
        // chunk ended, so its fields depended on the chunking.
        let bytes = Array("sku\n\(String(repeating: "x", count: 80))\n".utf8)
        let whole = readCSVRecords(bytes, maxRecordBytes: 64)
        XCTAssertEqual(whole.last?.fields, [String(repeating: "x", count: 64)])
        XCTAssertEqual(readCSVRecords(bytes, chunkSizes: [1], maxRecordBytes: 64), whole)
        XCTAssertEqual(readCSVRecords(bytes, chunkSizes: [7, 30], maxRecordBytes: 64), whole)
    }

    func test_tinyReadBuffer_givesTheSameRecords() {
        let text = Array("a,\"b\"\"c\",d\r\n\"x\ny\",z,\"\"\n".utf8)
        XCTAssertEqual(readCSVRecords(text, bufferSize: 4), readCSVRecords(text))
    }

    func test_generatedFiles_byteByByteAndRandomChunkings_giveTheSameRecords() {
        for seed in UInt64(1)...40 {
            var text = AwkwardText(seed: seed)
            let bytes = Array(generatedCSV(&text, records: 30).utf8)
            let whole = readCSVRecords(bytes)
            XCTAssertEqual(readCSVRecords(bytes, chunkSizes: [1]), whole, "seed \(seed), byte by byte")
            for round in 0..<5 {
                let chunks = (0..<7).map { _ in 1 + text.next(below: round == 0 ? 3 : 200) }
                XCTAssertEqual(readCSVRecords(bytes, chunkSizes: chunks), whole, "seed \(seed), chunks \(chunks)")
            }
        }
    }

    /// Random fields, some quoted and some not (whether or not they need it), some records broken.
    private func generatedCSV(_ text: inout AwkwardText, records: Int) -> String {
        var csv = text.next(below: 3) == 0 ? "\u{feff}" : ""
        for _ in 0..<records {
            let fields = (0..<(1 + text.next(below: 4))).map { _ -> String in
                let value = text.text(maxPieces: 5)
                if text.next(below: 2) == 0 { return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
                return value
            }
            csv += fields.joined(separator: ",") + (text.next(below: 2) == 0 ? "\n" : "\r\n")
        }
        return csv
    }
}
