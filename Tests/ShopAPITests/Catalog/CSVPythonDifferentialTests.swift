import XCTest
@testable import ShopAPI

/// `CSVReader` against Python's `csv` module (strict mode) on seeded random files: the same
/// records on the same lines, and an error from one exactly when the other finds one.
final class CSVPythonDifferentialTests: XCTestCase {
    func test_generatedFiles_readAsPythonsCSVModuleReadsThem() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("csv-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        var files: [(path: String, bytes: [UInt8])] = []
        for seed in UInt64(1)...300 {
            var text = AwkwardText(seed: seed &* 7919)
            let bytes = Array(Self.generatedCSV(&text, broken: seed % 5 == 0).utf8)
            let path = directory.appendingPathComponent("f\(seed).csv").path
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)), "cannot write \(path)")
            files.append((path, bytes))
        }
        let python = try PythonCSV.read(files.map(\.path))
        XCTAssertEqual(python.count, files.count)
        var errorsSeen = 0
        for ((path, bytes), expected) in zip(files, python) {
            let ours = readCSVRecords(bytes, chunkSizes: [1 + bytes.count % 97])
            let firstError = ours.firstIndex { $0.error != nil }
            let good = ours[..<(firstError ?? ours.count)]
            if let pythonError = expected.error {
                errorsSeen += 1
                XCTAssertNotNil(firstError, "\(path): Python says \(pythonError); we read \(ours)")
            } else {
                XCTAssertNil(firstError, "\(path): we found \(ours[firstError!]); Python read it")
            }
            // Up to the first error both must agree record for record (Python stops there).
            let count = expected.error == nil ? expected.records.count : min(expected.records.count, good.count)
            XCTAssertEqual(good.prefix(count).map(\.fields), Array(expected.records.prefix(count)), path)
            XCTAssertEqual(good.prefix(count).map(\.line), Array(expected.lines.prefix(count)), path)
            if expected.error == nil { XCTAssertEqual(good.count, expected.records.count, path) }
        }
        XCTAssertGreaterThan(errorsSeen, 20, "the broken files are broken")
    }

    /// Random records of awkward fields (no bare CR, which Python's csv takes as a line end and
    /// protocol.md's rules reject), quoted when they must be and sometimes when they need not be,
    /// with LF or CRLF, blank lines, sometimes a byte order mark; `broken` adds an unterminated
    /// quote or a character after a closing quote somewhere.
    static func generatedCSV(_ text: inout AwkwardText, broken: Bool) -> String {
        var csv = text.next(below: 4) == 0 ? "\u{feff}" : ""
        let records = 1 + text.next(below: 12)
        let breakAt = broken ? text.next(below: records) : -1
        for index in 0..<records {
            var fields = (0..<(1 + text.next(below: 5))).map { _ -> String in
                let value = text.text(maxPieces: 6, allowBareCR: false)
                let mustQuote = value.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) || value.hasPrefix("\"")
                if mustQuote || text.next(below: 3) == 0 {
                    return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                }
                return value
            }
            if fields == [""] { fields = ["\"\""] }  // an unquoted empty only field is a blank line
            if index == breakAt {
                if text.next(below: 2) == 0 { fields.append("\"never closed") } else { fields.append("\"closed\"x") }
            }
            csv += fields.joined(separator: ",") + (text.next(below: 2) == 0 ? "\n" : "\r\n")
            if text.next(below: 8) == 0 { csv += text.next(below: 2) == 0 ? "\n" : "\r\n" }
        }
        if text.next(below: 3) == 0, csv.hasSuffix("\n") { csv.removeLast() }  // no line end after the last record
        return csv
    }
}
