import Foundation
import XCTest

/// `shop-rpc import` into a store it would create, failing (a row error, an unknown column, a
/// directory for FILE) or dry-running, leaves nothing behind: no file, no directory, no schema. A
/// server started on that store afterwards creates the demo catalog as if no import had been tried.
final class FailedImportTests: XCTestCase {
    private func failingImports(_ location: String) throws -> [(name: String, arguments: [String])] {
        let directoryAsFile = FileManager.default.temporaryDirectory.appendingPathComponent("shop-dir-\(UUID().uuidString).csv").path
        try FileManager.default.createDirectory(atPath: directoryAsFile, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directoryAsFile) }
        return [
            ("a row error", ["import", "--db", location, try temporaryFile("bad.csv", "sku,name,category,priceCents\nOK-1,Fine,tools,100\nBAD-2,,tools,100\n")]),
            ("an unknown column", ["import", "--db", location, try temporaryFile("col.csv", "sku,name,category,priceCents,colour\nOK-1,Fine,tools,100,red\n")]),
            ("a directory as FILE", ["import", "--db", location, "--format", "csv", directoryAsFile]),
            ("a warning under --strict", ["import", "--db", location, "--strict", try temporaryFile("nostock.csv", "sku,name,category,price\nOK-1,Fine,tools,1.00\n")]),
        ]
    }

    /// The demo catalog's first product, as a server on `location` (with `environment`) sees it.
    private func demoProductServed(_ arguments: [String], environment: [String: String]? = nil) throws -> String? {
        let server = try ServerProcess(arguments, environment: environment)
        server.sendLine(rpc(1, "catalog.get", ["sku": "SKU-0001"]))
        let reply = server.readJSON() as? [String: Any]
        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0, server.stderrOutput)
        return reply?.result?["sku"] as? String
    }

    func test_failedImport_intoAStoreItWouldCreate_leavesNoFileDirectoryOrSchema() throws {
        try CommandStore.forEach { store in
            for (name, arguments) in try failingImports(store.location) {
                let result = try runCommand(arguments)
                XCTAssertEqual(result.status, 1, "\(name): \(result.stderr)")
                XCTAssertEqual(result.stdout, "", name)
                if store.kind == .sqlite {
                    let directory = (store.location as NSString).deletingLastPathComponent
                    XCTAssertFalse(FileManager.default.fileExists(atPath: directory), "\(name): no directory, so no file either")
                }
            }
            let dryRun = try runCommand(["import", "--db", store.location, "--dry-run", try temporaryFile("ok.csv", "sku,name,category,priceCents\nOK-1,Fine,tools,100\n")])
            XCTAssertEqual(dryRun.status, 0, dryRun.stderr)
            XCTAssertEqual(try demoProductServed(["--db", store.location]), "SKU-0001", "a server then creates the demo catalog: nothing was left")
        }
    }

    /// The case: on the default path, a failed import used to leave an empty store, which
    /// replaced the demo catalog for good.
    func test_failedImport_intoTheMissingDefaultStore_leavesTheDemoCatalogToTheServer() throws {
        let dataHome = FileManager.default.temporaryDirectory.appendingPathComponent("shop-xdg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dataHome) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = dataHome.path
        let bad = try temporaryFile("bad.csv", "sku,name,category,priceCents\nBAD-1,,tools,100\n")
        let importing = try ServerProcess(["import", bad], environment: environment)
        importing.closeInput()
        XCTAssertEqual(importing.waitForExit(), 1, importing.stderrOutput)
        XCTAssertTrue(importing.stderrOutput.contains("bad.csv:2: name: "), importing.stderrOutput)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dataHome.path), "nothing under XDG_DATA_HOME")
        XCTAssertEqual(try demoProductServed([], environment: environment), "SKU-0001")
    }

    func test_import_intoTheMissingDefaultStore_createsItHoldingExactlyTheFile_private() throws {
        let dataHome = FileManager.default.temporaryDirectory.appendingPathComponent("shop-xdg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dataHome) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = dataHome.path
        let good = try temporaryFile("good.csv", "sku,name,category,priceCents\nMINE-1,Mine,tools,100\n")
        let importing = try ServerProcess(["import", good], environment: environment)
        importing.closeInput()
        XCTAssertEqual(importing.waitForExit(), 0, importing.stderrOutput)
        let store = dataHome.appendingPathComponent("shop-rpc/shop.sqlite").path
        XCTAssertEqual(permissions(store), 0o600)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: (store as NSString).deletingLastPathComponent), ["shop.sqlite"],
                       "no temporary file left beside it")
        XCTAssertNil(try demoProductServed([], environment: environment), "no demo catalog in a store the import created")
        let server = try ServerProcess([], environment: environment)
        server.sendLine(rpc(1, "catalog.list", [:]))
        let items = (server.readJSON() as? [String: Any])?.result?["items"] as? [[String: Any]]
        XCTAssertEqual(items?.map { $0["sku"] as? String }, ["MINE-1"])
        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0)
    }
}
