import Foundation
import XCTest

/// `shop-rpc import` and `shop-rpc export`, run as the real binary on both stores: the summary,
/// the errors with their lines, exit statuses, dry runs, and the round trip in both formats.
final class CatalogCommandTests: XCTestCase {
    // MARK: - Import

    func test_import_createsAnEmptyStoreHoldingExactlyTheFile_andAServerServesIt() throws {
        try CommandStore.forEach { store in
            let file = try temporaryFile("catalog.csv", """
                sku,name,category,priceCents,stock,description
                LAMP-1,"Desk Lamp, brass",lighting,4500,7,"Warm ""amber"" light"
                MUG-2,Stoneware Mug,kitchen,1250,0,
                """)
            let result = try runCommand(["import", "--db", store.location, file])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stdout, #"{"rows":2,"created":2,"updated":0,"unchanged":0,"archived":0,"stockSet":2}"# + "\n")
            XCTAssertEqual(result.stderr, "", "nothing on stderr when it is not a terminal")

            let server = try ServerProcess(["--db", store.location])
            server.sendLine(rpc(1, "catalog.list", [:]))
            let items = (server.readJSON() as? [String: Any])?.result?["items"] as? [[String: Any]] ?? []
            XCTAssertEqual(items.map { $0["sku"] as? String }, ["LAMP-1", "MUG-2"], "no demo catalog in a store import created")
            XCTAssertEqual(items.first?["name"] as? String, "Desk Lamp, brass")
            XCTAssertEqual(items.first?["description"] as? String, "Warm \"amber\" light")
            XCTAssertEqual(items.last?["description"] as? String, "", "an empty description cell")
            server.sendLine(rpc(2, "catalog.search", ["query": "desk bra"]))
            XCTAssertEqual(((server.readJSON() as? [String: Any])?.result?["items"] as? [[String: Any]])?.count, 1)
            server.closeInput()
            XCTAssertEqual(server.waitForExit(), 0)
        }
    }

    func test_import_ndjsonFromStdin_updatesWhatItGives_andKeepsTheRest() throws {
        try CommandStore.forEach { store in
            _ = try runCommand(["import", "--db", store.location, try temporaryFile("a.csv", generatedCatalogCSV(count: 3))])
            let lines = """
                {"sku":"GEN-00001","priceCents":999}
                {"sku":"GEN-00002","stock":40}
                {"sku":"GEN-00003"}
                {"sku":"NEW-1","name":"Brand New","category":"gadgets","priceCents":5}
                """
            let result = try runCommand(["import", "--db", store.location, "--format", "ndjson", "-"], input: lines)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.summary, ["rows": 4, "created": 1, "updated": 1, "unchanged": 2, "archived": 0, "stockSet": 1])
            let exported = try runCommand(["export", "products", "--db", store.location])
            XCTAssertEqual(exported.status, 0, exported.stderr)
            XCTAssertEqual(exported.stdout.split(separator: "\n").map(String.init), [
                "sku,name,description,category,priceCents,currency,stock,handle,brand,status,"
                    + "option1Name,option1Value,option2Name,option2Value,option3Name,option3Value",
                #"GEN-00001,"Gadget 1, ""deluxe"" édition",Plain text 1,gadgets,999,USD,1,GEN-00001,,active,,,,,,"#,
                #"GEN-00002,"Gadget 2, ""deluxe"" édition",Plain text 2,gadgets,102,USD,40,GEN-00002,,active,,,,,,"#,
                #"GEN-00003,"Gadget 3, ""deluxe"" édition",Plain text 3,gadgets,103,USD,3,GEN-00003,,active,,,,,,"#,
                "NEW-1,Brand New,,gadgets,5,USD,0,NEW-1,,active,,,,,,",
            ])
        }
    }

    func test_import_rowErrors_areReportedWithTheirLines_andNothingIsWritten() throws {
        try CommandStore.forEach { store in
            let file = try temporaryFile("bad.csv", """
                sku,name,category,priceCents,currency
                OK-1,Fine,tools,100,USD
                NEW-2,,tools,100,USD
                NEW-4,Other Money,tools,100,EUR
                NEW-5,Negative,tools,-1,USD
                OK-6,Fine Too,tools,200,USD
                """)
            let result = try runCommand(["import", "--db", store.location, file])
            XCTAssertEqual(result.status, 1)
            XCTAssertEqual(result.stdout, "", "no summary")
            let lines = result.stderr.split(separator: "\n").map(String.init)
            // The reader's errors and those of the store's rules together, in file order, each
            // FILE:LINE: field: message.
            XCTAssertEqual(lines.count, 3, result.stderr)
            XCTAssertEqual(lines.first?.hasPrefix("\(file):3: name: "), true, result.stderr)
            XCTAssertEqual(lines.dropFirst().first, "\(file):4: currency: EUR is not the store's currency, USD: a store sells in one currency")
            XCTAssertEqual(lines.last?.hasPrefix("\(file):5: priceCents: "), true, result.stderr)

            // A file without the columns a new product needs: an error for each, on its line.
            let partial = try temporaryFile("partial.csv", "sku,name\nNEW-9,Thing\n")
            let missing = try runCommand(["import", "--db", store.location, partial])
            XCTAssertEqual(missing.status, 1)
            XCTAssertEqual(missing.stderr, """
                \(partial):2: category: NEW-9 is not in the store, and a new product needs a category
                \(partial):2: priceCents: NEW-9 is not in the store, and a new product needs a priceCents

                """)

            // Nothing was written, not even the store the import would have created: there is none.
            let export = try runCommand(["export", "products", "--db", store.location])
            XCTAssertEqual(export.status, 1, export.stderr)
            XCTAssertEqual(export.stdout, "", "nothing was written")
            XCTAssertTrue(export.stderr.contains(store.kind == .sqlite ? "no store at \(store.location)" : "there is no shop store in this database"),
                          export.stderr)
        }
    }

    func test_import_manyErrors_showsTheFirst50_andCountsTheRest() throws {
        let rows = (1...60).map { "NEW-\($0),,tools,1" }.joined(separator: "\n")
        let file = try temporaryFile("many.csv", "sku,name,category,priceCents\n" + rows + "\n")
        let store = CommandStore.sqlite()
        defer { store.remove() }
        let result = try runCommand(["import", "--db", store.location, file])
        XCTAssertEqual(result.status, 1)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 51, result.stderr)
        XCTAssertEqual(lines.first?.hasPrefix("\(file):2: name: "), true, result.stderr)
        XCTAssertEqual(lines.last, "\(file): … and 10 more errors")
    }

    func test_manyErrorsOfBothKinds_theFirst50InFileOrder() throws {
        // Odd lines: a new SKU without a category (the store's rule); even lines: an empty name
        // (the reader's); 120 rows, read ahead of the store.
        var text = "sku,name,priceCents\n"
        for number in 1...120 {
            text += number % 2 == 1 ? "N-\(number),Named,1\n" : "N-\(number),,1\n"
        }
        let file = try temporaryFile("mixed.csv", text)
        let store = CommandStore.sqlite()
        defer { store.remove() }
        let result = try runCommand(["import", "--db", store.location, file])
        XCTAssertEqual(result.status, 1)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 51, result.stderr)
        let numbers = lines.prefix(50).compactMap { Int($0.dropFirst(file.count + 1).prefix { $0 != ":" }) }
        XCTAssertEqual(numbers, Array(2...51), "lines 2 to 51, both kinds, in order")
        XCTAssertEqual(lines.last, "\(file): … and 70 more errors")
    }

    func test_dryRun_printsTheSummary_andWritesNothing() throws {
        try CommandStore.forEach { store in
            let file = try temporaryFile("c.csv", generatedCatalogCSV(count: 20))
            if store.kind == .sqlite {
                let dry = try runCommand(["import", "--dry-run", "--db", store.location, file])
                XCTAssertEqual(dry.status, 0, dry.stderr)
                XCTAssertEqual(dry.summary?["created"], 20)
                XCTAssertFalse(FileManager.default.fileExists(atPath: store.location), "a dry run creates no store")
            }
            _ = try runCommand(["import", "--db", store.location, try temporaryFile("d.csv", generatedCatalogCSV(prefix: "OLD", count: 5))])
            let before = try runCommand(["export", "products", "--db", store.location]).stdout
            let dry = try runCommand(["import", "--dry-run", "--replace", "--db", store.location, file])
            XCTAssertEqual(dry.status, 0, dry.stderr)
            XCTAssertEqual(dry.summary, ["rows": 20, "created": 20, "updated": 0, "unchanged": 0, "archived": 5, "stockSet": 20])
            XCTAssertEqual(try runCommand(["export", "products", "--db", store.location]).stdout, before)
            let real = try runCommand(["import", "--replace", "--db", store.location, file])
            XCTAssertEqual(real.summary, dry.summary, "the dry run told what the import did")
        }
    }

    func test_usageErrors_exitTwo_withoutTouchingTheStore() throws {
        let store = CommandStore.sqlite()
        defer { store.remove() }
        let csv = try temporaryFile("x.csv", "sku\n")
        for arguments in [
            ["import", "--db", store.location],
            ["import", "--db", store.location, csv, csv],
            ["import", "--db", store.location, "catalog.txt"],
            ["import", "--db", store.location, "-"],
            ["import", "--db", store.location, "--format", "xml", csv],
            ["import", "--db", store.location, "--replace=yes", csv],
            ["import", "--db", store.location, "--frobnicate", csv],
            ["import", "--db", "mysql://localhost/shop", csv],
            ["export", "--db", store.location],
            ["export", "customers", "--db", store.location],
            ["export", "products", "--since", "2026-01-01", "--db", store.location],
            ["export", "orders", "--since", "last week", "--db", store.location],
        ] {
            let result = try runCommand(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("shop-rpc: "), "\(arguments): \(result.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.location))
        let missing = try runCommand(["import", "--db", store.location, "/nonexistent/catalog.csv"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("cannot open /nonexistent/catalog.csv"), missing.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.location), "a file that cannot be read creates no store")
        let noStore = try runCommand(["export", "products", "--db", store.location])
        XCTAssertEqual(noStore.status, 1)
        XCTAssertTrue(noStore.stderr.contains("no store at \(store.location)"), noStore.stderr)
    }

    // MARK: - Round trip

    func test_roundTrip_exportThenImport_changesNothing_inBothFormats() throws {
        try CommandStore.forEach { store in
            let imported = try runCommand(["import", "--db", store.location, try temporaryFile("g.csv", generatedCatalogCSV(count: 300))])
            XCTAssertEqual(imported.status, 0, imported.stderr)
            for format in ["csv", "ndjson"] {
                let first = try runCommand(["export", "products", "--format", format, "--db", store.location])
                XCTAssertEqual(first.status, 0, first.stderr)
                XCTAssertEqual(first.stdout.filter { $0 == "\n" }.count, format == "csv" ? 301 + 30 : 300, "one record per product")
                let file = try temporaryFile("export.\(format)", first.stdout)
                let again = try runCommand(["import", "--replace", "--db", store.location, file])
                XCTAssertEqual(again.status, 0, again.stderr)
                XCTAssertEqual(again.summary, ["rows": 300, "created": 0, "updated": 0, "unchanged": 300, "archived": 0, "stockSet": 0], format)
                let stock = try runCommand(["export", "stock", "--format", format, "--db", store.location])
                let stockAgain = try runCommand(["import", "--db", store.location, try temporaryFile("stock.\(format)", stock.stdout)])
                XCTAssertEqual(stockAgain.summary?["unchanged"], 300, format)
                XCTAssertEqual(try runCommand(["export", "products", "--format", format, "--db", store.location]).stdout, first.stdout)
            }
        }
    }

    // MARK: - Export

    func test_exportOrders_oneRecordPerLine_oldestFirst_since() throws {
        try CommandStore.forEach { store in
            // A store the server creates has the demo catalog.
            let server = try ServerProcess(["--db", store.location])
            server.sendLine(rpc(1, "cart.add", ["cartId": "c", "sku": "SKU-0002", "quantity": 2]))
            _ = server.readJSON()
            server.sendLine(rpc(2, "cart.add", ["cartId": "c", "sku": "SKU-0008", "quantity": 1]))
            _ = server.readJSON()
            server.sendLine(rpc(3, "orders.place", ["cartId": "c", "idempotencyKey": "k"]))
            let order = (server.readJSON() as? [String: Any])?.result ?? [:]
            server.closeInput()
            XCTAssertEqual(server.waitForExit(), 0)
            let orderId = try XCTUnwrap(order["orderId"] as? String)
            let createdAt = try XCTUnwrap(order["createdAt"] as? String)

            let csv = try runCommand(["export", "orders", "--db", store.location])
            XCTAssertEqual(csv.status, 0, csv.stderr)
            XCTAssertEqual(csv.stdout, """
                orderId,createdAt,cartId,customer,status,currency,totalCents,line,sku,quantity,unitPriceCents
                \(orderId),\(createdAt),c,,placed,USD,46193,1,SKU-0002,2,16749
                \(orderId),\(createdAt),c,,placed,USD,46193,2,SKU-0008,1,12695

                """)
            let ndjson = try runCommand(["export", "orders", "--format", "ndjson", "--since", createdAt, "--db", store.location])
            XCTAssertEqual(ndjson.stdout.split(separator: "\n").first.map(String.init),
                           #"{"orderId":"\#(orderId)","createdAt":"\#(createdAt)","cartId":"c","status":"placed","currency":"USD","totalCents":46193,"line":1,"sku":"SKU-0002","quantity":2,"unitPriceCents":16749}"#)
            let none = try runCommand(["export", "orders", "--since", "2999-01-01", "--db", store.location])
            XCTAssertEqual(none.stdout, "orderId,createdAt,cartId,customer,status,currency,totalCents,line,sku,quantity,unitPriceCents\n")
            let stock = try runCommand(["export", "stock", "--db", store.location])
            XCTAssertTrue(stock.stdout.hasPrefix("sku,stock\nSKU-0001,"), stock.stdout)
            XCTAssertTrue(stock.stdout.contains("\nSKU-0002,59\n"), "61 less the 2 ordered")
        }
    }

    /// `export ledger`: every change of stock as a record, the order's (with the actor of the
    /// call), a cancel's and an import's, in ledger order; `--since` keeps the later ones.
    func test_exportLedger_oneRecordPerChange_inLedgerOrder_since() throws {
        try CommandStore.forEach { store in
            let server = try ServerProcess(["--db", store.location])
            server.sendLine(rpc(1, "cart.add", ["cartId": "c", "sku": "SKU-0002", "quantity": 2]))
            _ = server.readJSON()
            server.sendLine(rpc(2, "orders.place", ["cartId": "c", "idempotencyKey": "k", "_meta": ["actor": "web, \"checkout\""]]))
            let order = (server.readJSON() as? [String: Any])?.result ?? [:]
            let orderId = try XCTUnwrap(order["orderId"] as? String)
            server.sendLine(rpc(3, "orders.cancel", ["orderId": orderId]))
            let cancelledAt = try XCTUnwrap((server.readJSON() as? [String: Any])?.result?["cancelledAt"] as? String)
            server.closeInput()
            XCTAssertEqual(server.waitForExit(), 0)
            let file = try temporaryFile("stock.csv", "sku,stock\nSKU-0002,70\nSKU-0003,\(try XCTUnwrap(Self.level("SKU-0003", store)))\n")
            let imported = try runCommand(["import", "--db", store.location, file])
            XCTAssertEqual(imported.status, 0, imported.stderr)

            let csv = try runCommand(["export", "ledger", "--db", store.location])
            XCTAssertEqual(csv.status, 0, csv.stderr)
            var lines = csv.stdout.split(separator: "\n").map(String.init)
            XCTAssertEqual(lines.first, "seq,at,sku,delta,availableAfter,reason,orderId,source,actor")
            lines.removeFirst()
            XCTAssertEqual(lines.count, 3, csv.stdout)
            let fields = lines.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            XCTAssertEqual(fields.map { Array($0[2...7]) }, [
                ["SKU-0002", "-2", "59", "sale", orderId, ""],
                ["SKU-0002", "2", "61", "cancellation", orderId, ""],
                ["SKU-0002", "9", "70", "import", "", "shop-rpc import"],
            ], "no row for SKU-0003: the import left its level as it was")
            XCTAssertTrue(lines[0].hasSuffix(#",,"web, ""checkout""""#), "the order's actor, quoted as CSV needs: \(lines[0])")
            XCTAssertEqual(fields[1][1], cancelledAt)
            XCTAssertEqual(fields.map { Int($0[0]) ?? 0 }, fields.map { Int($0[0]) ?? 0 }.sorted())

            let ndjson = try runCommand(["export", "ledger", "--format", "ndjson", "--since", cancelledAt, "--db", store.location])
            let objects = ndjson.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            XCTAssertEqual(objects.map { $0["reason"] as? String }, ["cancellation", "import"])
            XCTAssertEqual(objects.first?["orderId"] as? String, orderId)
            XCTAssertNil(objects.first?["source"], "an absent member is left out")
            XCTAssertEqual(objects.last?["availableAfter"] as? Int, 70)
            XCTAssertEqual(try runCommand(["export", "ledger", "--since", "2999-01-01", "--db", store.location]).stdout,
                           "seq,at,sku,delta,availableAfter,reason,orderId,source,actor\n")
        }
    }

    /// The level of `sku` in `store`, from `export stock`.
    private static func level(_ sku: String, _ store: CommandStore) throws -> Int? {
        let stock = try runCommand(["export", "stock", "--db", store.location]).stdout
        return stock.split(separator: "\n").first { $0.hasPrefix(sku + ",") }.flatMap { Int($0.split(separator: ",")[1]) }
    }
}
