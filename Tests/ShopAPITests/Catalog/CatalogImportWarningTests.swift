import XCTest
@testable import ShopAPI

/// Prices in currency units and the import's warnings, through `ShopService.importCatalog` on
/// both stores, with files as an owner brings them (issue #41): WooCommerce's $45 hoodie, prices
/// in JPY and KWD, too many decimals, both price columns, a file without stock, `priceCents`
/// written in units, and `--strict`.
final class CatalogImportWarningTests: StoreContractTestCase {
    private func prices() throws -> [String: Int] {
        Dictionary(uniqueKeysWithValues: try service.exportedProducts().map { ($0.0.sku, $0.0.priceCents) })
    }

    func test_ownerPrices_17_99_25_and45_00_areDollars() throws {
        try forEachStore(creation: .empty) {
            let file = try service.importFile("sku,name,category,price,stock\nT-1,Tee,apparel,17.99,5\nC-1,Cap,apparel,25,5\nH-1,Hoodie,apparel,45.00,5\n")
            XCTAssertEqual(file.errors, [])
            XCTAssertTrue(file.outcome.committed)
            XCTAssertEqual(try prices(), ["T-1": 1799, "C-1": 2500, "H-1": 4500])
            XCTAssertEqual(file.warnings, [])
        }
    }

    func test_JPYAndKWD_useTheirExponent_andTooManyDecimalsNamesTheRowAndField() throws {
        try forEachStore(creation: .empty) {
            let yen = try service.importFile("sku,name,category,price,currency,stock\nJ-1,Tea,food,500,JPY,1\n")
            XCTAssertEqual(yen.errors, [])
            XCTAssertEqual(try prices(), ["J-1": 500])
            let fraction = try service.importFile("sku,price\nJ-1,500.5\n")
            XCTAssertEqual(fraction.errors, ["2: price: 500.5 has 1 decimal, but JPY has no minor unit"], "the store's currency is JPY")
        }
        try forEachStore(creation: .empty) {
            let dinar = try service.importFile("sku,name,category,price,currency,stock\nK-1,Dates,food,1.234,KWD,1\nK-2,Figs,food,2.5,KWD,1\n")
            XCTAssertEqual(dinar.errors, [])
            XCTAssertEqual(try prices(), ["K-1": 1234, "K-2": 2500])
        }
        try forEachStore(creation: .empty) {
            let file = try service.importFile("sku,name,category,price,stock\nA,A,c,17.99,1\nB,B,c,17.999,1\n")
            XCTAssertEqual(file.errors, ["3: price: 17.999 has 3 decimals, but USD has 2 decimals"])
            XCTAssertFalse(file.outcome.committed)
            XCTAssertEqual(try prices(), [:], "nothing written")
        }
    }

    func test_priceUpdatesAnExistingProduct_andBothColumnsInARowIsAnError() throws {
        try forEachStore {
            let file = try service.importFile("sku,price,priceCents\nSKU-0001,12.50,\nSKU-0002,,777\nSKU-0003,1.00,100\n")
            XCTAssertEqual(file.errors, ["4: price: \(CatalogFieldRules.bothPrices)"])
            let fixed = try service.importFile("sku,price,priceCents\nSKU-0001,12.50,\nSKU-0002,,777\n")
            XCTAssertEqual(fixed.errors, [])
            XCTAssertEqual(try service.product(sku: "SKU-0001", interruption: nil).priceCents, 1250)
            XCTAssertEqual(try service.product(sku: "SKU-0002", interruption: nil).priceCents, 777)
        }
    }

    func test_newProductsWithoutStock_areWarned_withTheirLines() throws {
        try forEachStore(creation: .empty) {
            let rows = (1...7).map { "P-\($0),Product \($0),c,1.00" }.joined(separator: "\n")
            let file = try service.importFile("sku,name,category,price\n\(rows)\n")
            XCTAssertEqual(file.errors, [])
            XCTAssertTrue(file.outcome.committed)
            XCTAssertEqual(file.warnings.map(\.kind), [.newProductsWithoutStock])
            XCTAssertEqual(file.warnings.first?.count, 7)
            XCTAssertEqual(file.warnings.first?.lines, [2, 3, 4, 5, 6], "the first five lines")
            XCTAssertEqual(file.outcome.summary.json,
                           #"{"rows":7,"created":7,"updated":0,"unchanged":0,"archived":0,"stockSet":0,"warnings":[{"kind":"newProductsWithoutStock","count":7,"lines":[2,3,4,5,6],"message":"new products without a stock value start at 0, so orders for them fail with OutOfStock until their stock is set"}]}"#)
            let update = try service.importFile("sku,name\nP-1,Renamed\n")
            XCTAssertEqual(update.warnings, [], "an existing product keeps its stock: nothing to warn about")
        }
    }

    func test_priceCentsAllBelowOneUnit_isWarned_butNotWhenOneIsAbove() throws {
        try forEachStore(creation: .empty) {
            let units = try service.importFile("sku,name,category,priceCents,stock\nH-1,Hoodie,apparel,45,1\nC-1,Cap,apparel,25,1\n")
            XCTAssertTrue(units.outcome.committed, "a warning writes the file")
            XCTAssertEqual(units.warnings.map(\.kind), [.priceCentsBelowOneUnit])
            XCTAssertEqual(units.warnings.first?.column, "priceCents")
            XCTAssertEqual(units.warnings.first?.lines, [2, 3])
            let cents = try service.importFile("sku,priceCents\nH-1,45\nC-1,2500\n")
            XCTAssertEqual(cents.warnings, [], "one price of a unit or more: the column is in cents")
        }
        try forEachStore(creation: .empty) {
            let yen = try service.importFile("sku,name,category,priceCents,currency,stock\nJ-1,Tea,food,45,JPY,1\n")
            XCTAssertEqual(yen.warnings, [], "JPY has no minor unit: 45 is 45 yen")
        }
    }

    func test_strict_turnsEveryWarningIntoAnError_andWritesNothing() throws {
        try forEachStore(creation: .empty) {
            let strict = CatalogImportOptions(strict: true)
            let noStock = try service.importFile("sku,name,category,price\nA,A,c,1.00\n", options: strict)
            XCTAssertFalse(noStock.outcome.committed)
            XCTAssertEqual(noStock.errors, [
                "2: stock: newProductsWithoutStock: new products without a stock value start at 0, so orders for them fail with OutOfStock until their stock is set (--strict)",
            ])
            let units = try service.importFile("sku,name,category,priceCents,stock\nA,A,c,45,1\n", options: strict)
            XCTAssertFalse(units.outcome.committed)
            XCTAssertEqual(units.errors.count, 1)
            XCTAssertTrue(units.errors[0].hasPrefix("2: priceCents: priceCentsBelowOneUnit: "), units.errors[0])
            let padded = try service.importFile("sku ,name,category,price,stock\nA,A,c,1.00,1\n", options: strict)
            XCTAssertFalse(padded.outcome.committed)
            XCTAssertEqual(padded.errors, ["1: header: trimmedHeader: the header cell \"sku \" has white space around its name, read as \"sku\" (--strict)"])
            let ignored = try service.importFile("sku,name,category,price,stock,Image\nA,A,c,1.00,1,x\n", options: strict,
                                                 readOptions: CatalogReadOptions(ignoreUnknown: true))
            XCTAssertFalse(ignored.outcome.committed)
            XCTAssertEqual(ignored.errors, ["1: header: ignoredColumn: \"Image\" is not a catalog column: its cells were not read (--strict)"])
            XCTAssertEqual(try service.exportedProducts().count, 0, "nothing was written")
            let clean = try service.importFile("sku,name,category,price,stock\nA,A,c,1.00,1\n", options: strict)
            XCTAssertTrue(clean.outcome.committed, "a file without warnings imports under --strict")
        }
    }

    func test_headerWarnings_comeFirst_thenTheRows() throws {
        try forEachStore(creation: .empty) {
            let file = try service.importFile("sku, name,category,price,Image\nA,A,c,1.00,x\n", readOptions: CatalogReadOptions(ignoreUnknown: true))
            XCTAssertEqual(file.errors, [])
            XCTAssertEqual(file.warnings.map(\.kind), [.trimmedHeader, .ignoredColumn, .newProductsWithoutStock])
        }
    }

    func test_spreadsheetFile_semicolonsWindows1252CROnlyPaddedAndTrailingEmptyRows_imports() throws {
        try forEachStore(creation: .empty) {
            let bytes: [UInt8] = Array("sku;name   ;category;price;stock\rH-1;Caf".utf8) + [0xE9] + Array(" mug;kitchen;12.50;4\r;;;;\r;;;;\r".utf8)
            let file = try service.importFile(bytes, encoding: .windows1252)
            XCTAssertEqual(file.errors, [])
            XCTAssertEqual(file.outcome.summary.created, 1)
            XCTAssertEqual(file.warnings.map(\.kind), [.trimmedHeader])
            XCTAssertEqual(try service.product(sku: "H-1", interruption: nil).name, "Café mug")
            XCTAssertEqual(try prices(), ["H-1": 1250])
        }
    }
}
