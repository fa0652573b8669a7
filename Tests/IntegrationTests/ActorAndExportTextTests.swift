import Foundation
import XCTest

/// Text that reaches a terminal or a spreadsheet, through the real binary: `_meta.actor` refuses
/// control characters and bidirectional formatting, and CSV exports neither write a raw control
/// byte nor let a cell start a formula, while export → import still gives normal data back byte
/// for byte (issue #40; protocol.md sections 2 and 9).
final class ActorAndExportTextTests: XCTestCase {
    func test_actorWithControlOrBidiCharacters_isInvalidParams_overRealPipes() throws {
        let server = try ServerProcess(["--db", ":memory:", "--allow", "read,write,admin"])
        server.sendLine(rpc("before", "inventory.check", ["skus": ["SKU-0003"]]))
        let before = jsonText((server.readJSON() as? [String: Any])?.result ?? [:])
        let refused = ["\u{1B}[31mred", "a\u{0}b", "line\nforged", "\u{202E}nimda", "x\u{2066}y", "c1\u{85}", "del\u{7F}"]
        for (index, actor) in refused.enumerated() {
            let params: [String: Any] = ["sku": "SKU-0003", "delta": 1, "reason": "other", "_meta": ["actor": actor]]
            server.sendLine(#"{"jsonrpc":"2.0","method":"admin.stock.adjust","params":\#(jsonText(params))}"#)
            server.sendLine(rpc(index, "admin.stock.adjust", params))
            server.sendLine(rpc("order-\(index)", "orders.place", ["cartId": "c", "idempotencyKey": "k\(index)", "_meta": ["actor": actor]]))
        }
        let replies = server.readReplies(2 * refused.count)
        XCTAssertEqual(replies.count, 2 * refused.count)
        for (id, reply) in replies {
            XCTAssertEqual(reply.errorCode, -32602, "\(id): \(reply)")
            XCTAssertEqual(reply.errorData?["field"] as? String, "_meta.actor", "\(id): \(reply)")
        }
        server.sendLine(rpc("level", "inventory.check", ["skus": ["SKU-0003"]]))
        XCTAssertEqual(jsonText((server.readJSON() as? [String: Any])?.result ?? [:]), before, "no adjust was made, not even by the notifications")
        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0, server.stderrOutput)
    }

    func test_exportLedgerCSV_neutralisesFormulas_andWritesNoRawControlByte_evenForOldRows() throws {
        try CommandStore.forEach { store in
            let server = try ServerProcess(["--db", store.location, "--allow", "read,write,admin"])
            let formula = #"=HYPERLINK("http://evil.example","x")"#
            server.sendLine(rpc(1, "admin.stock.adjust", ["sku": "SKU-0003", "delta": 1, "reason": "other", "_meta": ["actor": formula]]))
            server.sendLine(rpc(2, "admin.stock.adjust", ["sku": "SKU-0003", "delta": -1, "reason": "other", "_meta": ["actor": "old"]]))
            XCTAssertEqual(server.readReplies(2).values.filter { $0.result != nil }.count, 2)
            server.closeInput()
            XCTAssertEqual(server.waitForExit(), 0, server.stderrOutput)
            // A row written before `_meta.actor` refused control characters.
            switch store.kind {
            case .sqlite: _ = try sqliteShell(store.location, "UPDATE stock_ledger SET actor = 'old' || char(27) || '[2J' || char(7) WHERE actor = 'old';")
            case .postgres: XCTAssertNotNil(try PostgreSQLTestSession(uri: store.location).query("UPDATE stock_ledger SET actor = 'old' || chr(27) || '[2J' || chr(7) WHERE actor = 'old';"))
            }

            let csv = try runCommand(["export", "ledger", "--db", store.location])
            XCTAssertEqual(csv.status, 0, csv.stderr)
            let controls = csv.stdout.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
            XCTAssertEqual(controls.count, 0, "raw control characters in \(csv.stdout.debugDescription)")
            XCTAssertTrue(csv.stdout.contains(#",other,,admin.stock.adjust,"'=HYPERLINK(""http://evil.example"",""x"")""#), csv.stdout)
            XCTAssertTrue(csv.stdout.contains(",old\u{FFFD}[2J\u{FFFD}\n"), csv.stdout.debugDescription)
            XCTAssertTrue(csv.stdout.contains(",1,"), "a positive delta as digits")
            XCTAssertTrue(csv.stdout.contains(",-1,"), "a negative delta as digits, never prefixed: \(csv.stdout)")

            let ndjson = try runCommand(["export", "ledger", "--format", "ndjson", "--db", store.location])
            XCTAssertTrue(ndjson.stdout.contains(#""actor":"=HYPERLINK(\"http://evil.example\",\"x\")""#), "NDJSON writes the value as it is: \(ndjson.stdout)")
        }
    }

    func test_exportProductsCSV_formulaLikeNames_roundTripThroughImport_andNoControlByteIsWritten() throws {
        try CommandStore.forEach { store in
            let catalog = """
                sku,name,description,category,priceCents,currency,stock
                F-1,=1+1,-minus first,formulas,100,USD,1
                F-2,+1 cable,@mention,formulas,200,USD,2
                F-3,'Tis the season,''=quoted,formulas,300,USD,3
                F-4,"\u{9}tab first",ends with a tab\u{9},formulas,400,USD,4
                F-5,Escape,bell\u{7} and \u{1B}[2J,formulas,500,USD,5

                """
            // In a CSV file, a quote before a formula character or another quote is the export's
            // prefix: F-3's description is '=quoted.
            let imported = try runCommand(["import", "--replace", "--db", store.location, try temporaryFile("f.csv", catalog)])
            XCTAssertEqual(imported.status, 0, imported.stderr)
            let first = try runCommand(["export", "products", "--db", store.location])
            XCTAssertEqual(first.status, 0, first.stderr)
            XCTAssertTrue(first.stdout.contains("\nF-1,'=1+1,'-minus first,formulas,100,USD,1,F-1,,active,,,,,,\n"), first.stdout)
            XCTAssertTrue(first.stdout.contains("\nF-2,'+1 cable,'@mention,formulas,200,USD,2,F-2,,active,,,,,,\n"), first.stdout)
            XCTAssertTrue(first.stdout.contains("\nF-3,'Tis the season,''=quoted,formulas,300,USD,3,F-3,,active,,,,,,\n"), first.stdout)
            XCTAssertTrue(first.stdout.contains("\nF-4,'\u{9}tab first,ends with a tab\u{9},formulas,400,USD,4,F-4,,active,,,,,,\n"), first.stdout.debugDescription)
            XCTAssertTrue(first.stdout.contains("\nF-5,Escape,bell\u{FFFD} and \u{FFFD}[2J,formulas,500,USD,5,F-5,,active,,,,,,\n"), first.stdout.debugDescription)

            // The export read back changes every product but the one whose control bytes it replaced.
            let again = try runCommand(["import", "--replace", "--db", store.location, try temporaryFile("export.csv", first.stdout)])
            XCTAssertEqual(again.status, 0, again.stderr)
            XCTAssertEqual(again.summary?["unchanged"], 4, again.stdout)
            XCTAssertEqual(again.summary?["updated"], 1, again.stdout)
            XCTAssertEqual(try runCommand(["export", "products", "--db", store.location]).stdout, first.stdout, "byte for byte")
            let ndjson = try runCommand(["export", "products", "--format", "ndjson", "--db", store.location]).stdout
            XCTAssertTrue(ndjson.contains(#""name":"=1+1","description":"-minus first""#), ndjson)
            XCTAssertTrue(ndjson.contains(#""name":"'Tis the season","description":"'=quoted""#), ndjson)
        }
    }
}
