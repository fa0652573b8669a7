import XCTest
@testable import ShopAPI

/// `AnalyzedCatalogRows`: every row of the source, in order, once, each with the entry of the
/// product it would create, whatever the batch boundaries; no entry for a row that cannot create
/// one, nor when not analysing; an entry is only ever given for the document it was made from.
final class AnalyzedCatalogRowsTests: XCTestCase {
    private static let batch = AnalyzedCatalogRows<String>.batchSize

    /// What the test's entry function makes: the words of the document, so a wrong pairing shows.
    @Sendable private static func entry(_ document: SearchDocument) -> String {
        [document.name, document.brand, document.category, document.description, document.sku, document.handle].joined(separator: "|")
    }

    private func rows(_ count: Int) -> [CatalogRow] {
        (0..<count).map { i in
            // Every seventh row updates an existing SKU (no name): it cannot create a product.
            i % 7 == 3
                ? CatalogRow(line: i + 2, sku: "SKU-\(i)", stock: i)
                : CatalogRow(line: i + 2, sku: "SKU-\(i)", name: "Name \(i)", description: i.isMultiple(of: 2) ? "Text \(i)" : nil,
                             category: "cat", handle: i.isMultiple(of: 5) ? "H-\(i)" : nil, brand: i.isMultiple(of: 3) ? "Acme" : nil)
        }
    }

    private func readAll(_ rows: [CatalogRow], analysing: Bool = true) throws -> [AnalyzedCatalogRows<String>.Row] {
        var source = RowListSource(rows)
        var analyzed = AnalyzedCatalogRows(analysing: analysing, entry: Self.entry)
        var read: [AnalyzedCatalogRows<String>.Row] = []
        while let row = try analyzed.next(from: &source) { read.append(row) }
        XCTAssertNil(try analyzed.next(from: &source), "the end stays the end")
        return read
    }

    func test_everyRowInOrder_withTheEntryOfItsNewProduct_acrossBatchBoundaries() throws {
        for count in [0, 1, Self.batch - 1, Self.batch, Self.batch + 1, 3 * Self.batch + 17] {
            let rows = rows(count)
            let read = try readAll(rows)
            XCTAssertEqual(read.map(\.row), rows, "\(count) rows")
            for (row, analyzed) in zip(rows, read) {
                if row.name == nil {
                    XCTAssertNil(analyzed.analysis, "line \(row.line) updates: no new product")
                    continue
                }
                let document = SearchDocument(name: row.name!, brand: row.brand ?? "", category: "cat", description: row.description ?? "",
                                              sku: row.sku, handle: row.handle ?? row.sku)
                XCTAssertEqual(analyzed.analysis?.document, document, "line \(row.line)")
                XCTAssertEqual(analyzed.analysis?.entry(of: document), Self.entry(document), "line \(row.line)")
            }
        }
    }

    func test_notAnalysing_handsOutTheRowsWithoutEntries() throws {
        let rows = rows(Self.batch + 3)
        let read = try readAll(rows, analysing: false)
        XCTAssertEqual(read.map(\.row), rows)
        XCTAssertTrue(read.allSatisfy { $0.analysis == nil })
    }

    func test_anEntryIsGivenOnlyForTheDocumentItWasMadeFrom() throws {
        let row = CatalogRow(line: 2, sku: "A-1", name: "Oak Desk", category: "furniture", handle: "desk")
        let analysis = try XCTUnwrap(try readAll([row]).first?.analysis)
        var other = analysis.document
        XCTAssertNotNil(analysis.entry(of: other))
        // A store that indexes the product with more SKUs (a variant joined it) must analyse it itself.
        other.sku = "A-1 A-2"
        XCTAssertNil(analysis.entry(of: other))
    }
}
