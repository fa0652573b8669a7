import Foundation
import XCTest

/// `shop-rpc import` run as a process on the files a shop owner brings (issue #41): prices in
/// units, a file as Excel saves it in Europe (`;`, Windows-1252, CR-only line ends, padded header,
/// trailing empty rows), `--map` and `--ignore-unknown`, the warnings on stdout and stderr,
/// `--strict`, and `admin.products.upsert` with `price`.
final class SpreadsheetImportTests: XCTestCase {
    private func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = try temporaryFile(name, "")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func exported(_ location: String) throws -> [String] {
        let result = try runCommand(["export", "products", "--db", location])
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout.split(separator: "\n").map(String.init)
    }

    func test_excelFile_semicolonsWindows1252CROnly_importsWithEncoding_andHintsWithout() throws {
        // "Café crème" and "€5 voucher" in Windows-1252, as Excel saves "CSV (semicolon)" in Europe.
        let bytes: [UInt8] = Array("sku;name   ;category;price;stock\r".utf8)
            + Array("MUG-1;Caf".utf8) + [0xE9] + Array(" cr".utf8) + [0xE8] + Array("me;kitchen;12.50;4\r".utf8)
            + Array("GIFT-5;".utf8) + [0x80] + Array("5 voucher;gifts;5;100\r;;;;\r;;;;\r".utf8)
        let path = try file("excel.csv", bytes)
        try CommandStore.forEach { store in
            let plain = try runCommand(["import", "--db", store.location, path])
            XCTAssertEqual(plain.status, 1)
            XCTAssertTrue(plain.stderr.contains("\(path):2: name: invalid UTF-8 (if the file was saved by Excel or another Windows program, read it with --encoding windows-1252)"),
                          plain.stderr)

            let result = try runCommand(["import", "--db", store.location, "--encoding", "windows-1252", path])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.summary, ["rows": 2, "created": 2, "updated": 0, "unchanged": 0, "archived": 0, "stockSet": 2])
            XCTAssertEqual(result.warnings.map { $0["kind"] as? String }, ["trimmedHeader"])
            XCTAssertEqual(result.warnings.first?["column"] as? String, "name")
            XCTAssertEqual(result.stderr, "\(path):1: warning: trimmedHeader: the header cell \"name   \" has white space around its name, read as \"name\"\n")
            XCTAssertEqual(try exported(store.location), [
                "sku,name,description,category,priceCents,currency,stock,handle,brand,status,option1Name,option1Value,option2Name,option2Value,option3Name,option3Value",
                "MUG-1,Café crème,,kitchen,1250,USD,4,MUG-1,,active,,,,,,",
                "GIFT-5,€5 voucher,,gifts,500,USD,100,GIFT-5,,active,,,,,,",
            ], "in the file's order, each product its own handle")
        }
    }

    func test_platformColumns_withMapAndIgnoreUnknown_andOwnerPrices() throws {
        let path = try temporaryFile("woo.csv", """
            ID,SKU,Name,Regular price,Categories,Images,Stock
            1,T-1,Tee,17.99,apparel,t.png,3
            2,C-1,Cap,25,apparel,c.png,3
            3,H-1,Hoodie,45.00,apparel,h.png,3
            """)
        try CommandStore.forEach { store in
            let unknown = try runCommand(["import", "--db", store.location, path])
            XCTAssertEqual(unknown.status, 1)
            XCTAssertTrue(unknown.stderr.contains("unknown column \"SKU\" (did you mean sku?)"), unknown.stderr)

            let arguments = ["import", "--db", store.location, "--map", "SKU=sku,Name=name,Regular price=price,Categories=category,Stock=stock",
                             "--ignore-unknown", path]
            let strict = try runCommand(arguments + ["--strict"])
            XCTAssertEqual(strict.status, 1, "ignored columns are warnings, so errors under --strict")
            XCTAssertEqual(strict.stdout, "")
            XCTAssertTrue(strict.stderr.contains("\(path):1: header: ignoredColumn: \"ID\" is not a catalog column: its cells were not read (--strict)"),
                          strict.stderr)

            let result = try runCommand(arguments)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.summary, ["rows": 3, "created": 3, "updated": 0, "unchanged": 0, "archived": 0, "stockSet": 3])
            XCTAssertEqual(result.warnings.map { $0["column"] as? String }, ["ID", "Images"], "each ignored column once")
            XCTAssertEqual(result.warnings.first?["lines"] as? [Int], [1])
            XCTAssertEqual(try exported(store.location), [
                "sku,name,description,category,priceCents,currency,stock,handle,brand,status,option1Name,option1Value,option2Name,option2Value,option3Name,option3Value",
                "T-1,Tee,,apparel,1799,USD,3,T-1,,active,,,,,,",
                "C-1,Cap,,apparel,2500,USD,3,C-1,,active,,,,,,",
                "H-1,Hoodie,,apparel,4500,USD,3,H-1,,active,,,,,,",
            ])
        }
    }

    func test_priceCentsInUnits_andNoStock_areWarned_strictWritesNothing() throws {
        let path = try temporaryFile("cents.csv", "sku,name,category,priceCents\nH-1,Hoodie,apparel,45\nC-1,Cap,apparel,25\n")
        try CommandStore.forEach { store in
            let strict = try runCommand(["import", "--db", store.location, "--strict", path])
            XCTAssertEqual(strict.status, 1)
            XCTAssertEqual(strict.stdout, "")
            XCTAssertTrue(strict.stderr.contains("\(path):2: stock: newProductsWithoutStock: "), strict.stderr)
            XCTAssertTrue(strict.stderr.contains("\(path):3: priceCents: priceCentsBelowOneUnit: "), strict.stderr)
            if store.kind == .sqlite {
                XCTAssertFalse(FileManager.default.fileExists(atPath: store.location), "a strict import that fails creates no store")
            }

            let result = try runCommand(["import", "--db", store.location, path])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.warnings.map { $0["kind"] as? String }, ["newProductsWithoutStock", "priceCentsBelowOneUnit"])
            XCTAssertEqual(result.warnings.map { $0["count"] as? Int }, [2, 2])
            XCTAssertEqual(result.warnings.map { $0["lines"] as? [Int] }, [[2, 3], [2, 3]])
            XCTAssertTrue(result.stderr.contains("\(path):2: warning: newProductsWithoutStock: new products without a stock value start at 0"), result.stderr)
            XCTAssertTrue(result.stderr.contains("(2 rows: lines 2, 3)"), result.stderr)
        }
    }

    func test_tooManyDecimals_andBothPriceColumns_areErrorsNamingTheRowAndField() throws {
        let path = try temporaryFile("bad.csv", "sku,name,category,price,priceCents,stock\nA,A,c,17.999,,1\nB,B,c,1.00,100,1\nC,C,c,,250,1\n")
        let result = try runCommand(["import", "--db", CommandStore.sqlite().location, path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, """
            \(path):2: price: 17.999 has 3 decimals, but USD has 2 decimals
            \(path):3: price: the row gives both price (major units, 19.99) and priceCents (minor units, 1999): give one

            """)
    }

    func test_usageErrors_forMapAndDelimiter() throws {
        let path = try temporaryFile("a.ndjson", "{\"sku\":\"A\"}\n")
        let map = try runCommand(["import", "--db", ":memory:", "--map", "Title=titel", path])
        XCTAssertEqual(map.status, 2)
        XCTAssertTrue(map.stderr.contains("--map: \"titel\" is not a column"), map.stderr)
        let delimiter = try runCommand(["import", "--db", ":memory:", "--delimiter", ";", path])
        XCTAssertEqual(delimiter.status, 2)
        XCTAssertTrue(delimiter.stderr.contains("--delimiter is for CSV files only"), delimiter.stderr)
    }

    func test_upsert_takesPriceInUnits_asAString() throws {
        let server = try ServerProcess(["--db", ":memory:", "--allow", "read,write,admin"])
        server.sendLine(rpc(1, "admin.products.upsert", ["products": [
            ["sku": "TEA-1", "name": "Green Tea", "category": "tea", "price": "8.99", "stock": 3],
            ["sku": "SKU-0001", "price": 12],
        ]]))
        let upserted = server.readJSON() as? [String: Any]
        XCTAssertEqual(upserted?.result?["created"] as? Int, 1, "\(String(describing: upserted))")
        server.sendLine(rpc(2, "catalog.get", ["sku": "TEA-1"]))
        XCTAssertEqual((server.readJSON() as? [String: Any])?.result?["priceCents"] as? Int, 899)
        server.sendLine(rpc(3, "catalog.get", ["sku": "SKU-0001"]))
        XCTAssertEqual((server.readJSON() as? [String: Any])?.result?["priceCents"] as? Int, 1200)
        server.sendLine(rpc(4, "admin.products.upsert", ["products": [["sku": "SKU-0002", "price": 8.99]]]))
        let refused = server.readJSON() as? [String: Any]
        XCTAssertEqual(refused?.errorCode, -32602)
        let data = (refused?["error"] as? [String: Any])?["data"] as? [String: Any]
        XCTAssertEqual(data?["field"] as? String, "products[0].price")
        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0, server.stderrOutput)
    }
}
