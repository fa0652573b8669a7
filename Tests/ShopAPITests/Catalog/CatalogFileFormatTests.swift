import XCTest
import ShopAPI

/// Choosing a catalog file's format from `--format` or the file name.
final class CatalogFileFormatTests: XCTestCase {
    func test_extensions() {
        XCTAssertEqual(CatalogFileFormat.inferred(fromPath: "catalog.csv"), .csv)
        XCTAssertEqual(CatalogFileFormat.inferred(fromPath: "/tmp/x.y/Catalog.CSV"), .csv)
        XCTAssertEqual(CatalogFileFormat.inferred(fromPath: "a.ndjson"), .ndjson)
        XCTAssertEqual(CatalogFileFormat.inferred(fromPath: "a.jsonl"), .ndjson)
        XCTAssertNil(CatalogFileFormat.inferred(fromPath: "a.json"))
        XCTAssertNil(CatalogFileFormat.inferred(fromPath: "csv"))
        XCTAssertNil(CatalogFileFormat.inferred(fromPath: ".csv"))
        XCTAssertNil(CatalogFileFormat.inferred(fromPath: "dir.csv/file"))
        XCTAssertNil(CatalogFileFormat.inferred(fromPath: "-"))
    }

    func test_explicitFormat_wins_andStdinNeedsIt() throws {
        XCTAssertEqual(try CatalogFileFormat.choose(path: "a.csv", explicit: .ndjson), .ndjson)
        XCTAssertEqual(try CatalogFileFormat.choose(path: "-", explicit: .csv), .csv)
        XCTAssertEqual(try CatalogFileFormat.choose(path: "a.jsonl", explicit: nil), .ndjson)
        XCTAssertThrowsError(try CatalogFileFormat.choose(path: "-", explicit: nil)) { error in
            XCTAssertEqual("\(error)", "reading stdin needs --format csv or --format ndjson")
        }
        XCTAssertThrowsError(try CatalogFileFormat.choose(path: "data.txt", explicit: nil)) { error in
            XCTAssertEqual("\(error)", "cannot tell the format of data.txt from its name (.csv, .ndjson or .jsonl); give --format csv or --format ndjson")
        }
        XCTAssertEqual(CatalogFileFormat(rawValue: "ndjson"), .ndjson)
        XCTAssertNil(CatalogFileFormat(rawValue: "jsonl"))
    }
}
