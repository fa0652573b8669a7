import XCTest
@testable import ShopAPI

/// `ShopService.open(path:readOnly:)` on SQLite: an existing store is read, never written,
/// created or migrated; a missing one is an error that creates nothing.
final class ReadOnlyStoreTests: XCTestCase {
    private var database: TemporaryDatabase!

    override func setUp() {
        database = TemporaryDatabase()
    }

    override func tearDown() {
        database.remove()
    }

    func test_missingStore_failsWithStorageError_andCreatesNothing() {
        XCTAssertThrowsError(try ShopService.open(path: database.path, readOnly: true)) { error in
            guard case let .storage(message)? = error as? ShopError else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("no store there"), message)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: database.directory.path), "no directory either")
    }

    func test_existingStore_servesReads_andRefusesWrites_leavingTheFileAsItWas() throws {
        do {
            let writer = try ShopService.open(path: database.path)
            _ = try writer.addToCartAndWait("c1", "SKU-0002", 2).get()
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: database.path))
        let service = try ShopService.open(path: database.path, readOnly: true)
        XCTAssertEqual(try service.product(sku: "SKU-0001", interruption: nil).sku, "SKU-0001")
        XCTAssertEqual(try service.cart(id: "c1", interruption: nil).lines.map(\.quantity), [2])
        guard case .storage? = service.addToCartAndWait("c2", "SKU-0001", 1).failure else {
            return XCTFail("a write through a read-only store fails as a storage error")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: database.path)), before)
    }

    func test_emptyFile_isNotAStore_andStaysEmpty() throws {
        try FileManager.default.createDirectory(at: database.directory.appendingPathComponent("data"), withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: database.path, contents: Data()))
        XCTAssertThrowsError(try ShopService.open(path: database.path, readOnly: true)) { error in
            guard case let .storage(message)? = error as? ShopError else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("not a shop store"), message)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: database.path)).count, 0)
    }
}

/// The same on PostgreSQL (scripts/with-postgres): read-only sessions, no schema created; and a
/// store opened `.importedFile` on a database without the schema keeps none after a failed import.
final class PostgreSQLReadOnlyAndImportedFileTests: XCTestCase {
    private var database: PostgreSQLTestDatabase!

    override func setUpWithError() throws {
        database = try PostgreSQLTestDatabase()
    }

    override func tearDown() {
        database?.drop()
        super.tearDown()
    }

    func test_readOnly_withoutTheSchema_fails_andCreatesNone_withIt_readsAndRefusesWrites() throws {
        for _ in 0..<2 {
            XCTAssertThrowsError(try ShopService.open(path: database.uri, readOnly: true)) { error in
                guard case let .storage(message)? = error as? ShopError else { return XCTFail("\(error)") }
                XCTAssertTrue(message.contains("there is no shop store in this database"), "(no schema was made the first time) \(message)")
            }
        }
        _ = try ShopService.open(path: database.uri)
        let service = try ShopService.open(path: database.uri, readOnly: true)
        XCTAssertEqual(try service.product(sku: "SKU-0001", interruption: nil).sku, "SKU-0001")
        guard case let .storage(message)? = service.addToCartAndWait("c", "SKU-0001", 1).failure else {
            return XCTFail("a write in a read-only session fails as a storage error")
        }
        XCTAssertTrue(message.contains("25006"), message)
    }

    func test_importedFile_failedImportAndDryRun_leaveNoSchema_aGoodImportCreatesItHoldingTheFile() throws {
        let good = CatalogRow(line: 2, sku: "MINE-1", name: "Mine", category: "tools", priceCents: 100)
        let store = try ShopService.open(path: database.uri, creation: .importedFile)
        var failing = RowListSource([good], fileErrors: [.init(line: 3, field: "name", message: "empty")])
        XCTAssertFalse(try store.importCatalog(from: &failing, options: CatalogImportOptions(replace: false, dryRun: false)).committed)
        var dryRun = RowListSource([good])
        XCTAssertFalse(try store.importCatalog(from: &dryRun, options: CatalogImportOptions(replace: false, dryRun: true)).committed)
        XCTAssertThrowsError(try ShopService.open(path: database.uri, readOnly: true), "no schema was left")

        var source = RowListSource([good])
        XCTAssertTrue(try store.importCatalog(from: &source, options: CatalogImportOptions(replace: false, dryRun: false)).committed)
        let reopened = try ShopService.open(path: database.uri)
        XCTAssertEqual(try reopened.allProducts().map(\.sku), ["MINE-1"], "no demo catalog")
    }
}
