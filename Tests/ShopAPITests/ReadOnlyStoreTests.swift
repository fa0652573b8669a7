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
