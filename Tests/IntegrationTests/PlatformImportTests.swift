import Foundation
import XCTest

/// `shop-rpc import --from shopify|woocommerce|medusa`, run as the real binary on the platforms'
/// own files (Tests/Fixtures/Platforms; their sources are in the README there).
final class PlatformImportTests: XCTestCase {
    private static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/Platforms")

    private func fixture(_ name: String) -> String { Self.fixtures.appendingPathComponent(name).path }

    /// The summary line's `platform` member.
    private func platform(_ result: CommandResult) -> [String: Any]? {
        ((try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any])?["platform"] as? [String: Any]
    }

    // MARK: - End to end (needs the canonical columns)

    /// Each platform's file goes in with no edits: every variant is a row, the columns kept
    /// nowhere are listed once, the skipped rows are counted, and the products are served.
    func test_eachPlatformsOwnFile_importsWithNoEdits_onBothStores() throws {
        // One variant of each file, with its price in minor units and its stock as exported (a
        // draft's: Shopify's jeans; the archived beanie is not exported).
        let cases: [(preset: String, file: String, currency: String?, rows: Int, skipped: [String: Int], product: String,
                     sku: String, priceCents: String, stock: String)] = [
            ("shopify", "shopify-product_template.csv", nil, 16, ["image-only": 1], "example-shirt", "PNT_DEN_285", "9500", "20"),
            ("woocommerce", "woocommerce-sample_products.csv", nil, 21, ["grouped": 1, "external": 1], "woo-hoodie",
             "woo-hoodie-red", "4500", "0"),
            ("woocommerce", "woocommerce-importer-test-sample.csv", nil, 4, ["grouped": 1, "external": 1], "wooidea",
             "WOOIDEA-green-l", "2000", "10"),
            ("medusa", "medusa-import-template.csv", "EUR", 5, [:], "sweatpants-v2", "sweatpants-v2-xl", "2950", "0"),
        ]
        for item in cases {
            try CommandStore.forEach { store in
                var arguments = ["import", "--db", store.location, "--from", item.preset]
                if let currency = item.currency { arguments += ["--currency", currency] }
                let result = try runCommand(arguments + [fixture(item.file)])
                XCTAssertEqual(result.status, 0, "\(item.file): \(result.stderr)")
                let summary = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any]
                XCTAssertEqual(summary?["rows"] as? Int, item.rows, item.file)
                XCTAssertEqual(summary?["created"] as? Int, item.rows, item.file)
                XCTAssertEqual(platform(result)?["skippedRows"] as? [String: Int], item.skipped, item.file)
                XCTAssertFalse((platform(result)?["ignoredColumns"] as? [String] ?? []).isEmpty, item.file)

                let exported = try runCommand(["export", "products", "--format", "ndjson", "--db", store.location])
                let variant = exported.stdout.split(separator: "\n")
                    .compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
                    .first { $0["sku"] as? String == item.sku }
                XCTAssertEqual((variant?["priceCents"] as? Int).map(String.init), item.priceCents, "\(item.file): \(item.sku)'s price in minor units")
                XCTAssertEqual((variant?["stock"] as? Int).map(String.init), item.stock, "\(item.file): \(item.sku)'s stock")

                let again = try runCommand(arguments + [fixture(item.file)])
                XCTAssertEqual(again.status, 0, again.stderr)
                let repeated = (try? JSONSerialization.jsonObject(with: Data(again.stdout.utf8))) as? [String: Any]
                XCTAssertEqual(repeated?["unchanged"] as? Int, item.rows, "\(item.file): the same file again changes nothing (its made-up SKUs are stable)")

                let server = try ServerProcess(["--db", store.location])
                server.sendLine(rpc(1, "catalog.product", ["handle": item.product]))
                let product = (server.readJSON() as? [String: Any])?.result
                XCTAssertNotNil(product, "\(item.file): \(item.product) is served")
                if item.preset == "shopify" {
                    server.sendLine(rpc(2, "catalog.product", ["handle": "example-pants"]))
                    let draft = server.readJSON() as? [String: Any]
                    XCTAssertEqual((draft?["error"] as? [String: Any])?["code"] as? Int, 1001, "a draft is not shown to shoppers")
                }
                server.closeInput()
                XCTAssertEqual(server.waitForExit(), 0)
            }
        }
    }

    // MARK: - What runs today

    func test_fromAPlatformWhoseFileItIsNot_isAHeaderError_andNothingIsWritten() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shop-platform-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("shop.sqlite").path
        let file = fixture("woocommerce-sample_products.csv")
        let result = try runCommand(["import", "--db", database, "--from", "shopify", file])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, "\(file):1: header: no Handle column: this is not a Shopify product CSV (its columns are Handle, Title, Body (HTML), Vendor, …)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: database), "a store the import would have created is not left behind")
    }

    func test_rowsThePresetCannotRead_areReportedWithThePlatformFilesLineAndColumn() throws {
        let file = try temporaryFile("products_export.csv", """
            Handle,Title,Body (HTML),Variant SKU,Variant Price
            mug,Mug,"<p>Two
            lines</p>",MUG-1,4.50
            mug,,,MUG-2,four
            """)
        let result = try runCommand(["import", "--db", ":memory:", "--from", "shopify", file])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("\(file):4: Variant Price: \"four\" is not a price in currency units (such as 19.99)\n"), result.stderr)
    }

    func test_fromStdin_readsThePlatformsFile_withNoFormatNeeded() throws {
        let result = try runCommand(["import", "--db", ":memory:", "--from", "woocommerce", "-"],
                                    input: "Type,SKU,Name,Regular price\nsimple,A,Alpha,1.5\nbundle,B,Beta,2\n")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains(
            "-:3: Type: \"bundle\" is not a product type (simple, variable, variation, grouped, external)\n"), result.stderr)
    }

    func test_fromFlags_usageErrors() throws {
        let file = fixture("shopify-product_template.csv")
        for (arguments, message) in [
            (["--from", "shopify", "--format", "csv"], "--from reads the platform's CSV export; --format does not go with it"),
            (["--currency", "EUR"], "--currency goes with --from"),
            (["--from", "shopify", "--currency", "eur"], "--currency needs an ISO 4217 code, three capital letters such as EUR, got 'eur'"),
            (["--from", "magento"], "--from"),
        ] {
            let result = try runCommand(["import", "--db", ":memory:"] + arguments + [file])
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }
}
