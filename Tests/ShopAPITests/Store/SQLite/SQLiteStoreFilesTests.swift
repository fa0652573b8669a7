import XCTest
@testable import ShopAPI

/// `SQLiteStoreFiles`: what it creates is private whatever the umask, and moving a new store into
/// place never replaces one that is there.
final class SQLiteStoreFilesTests: XCTestCase {
    private var database: TemporaryDatabase!
    private var savedMask: mode_t = 0

    override func setUp() {
        database = TemporaryDatabase()
        savedMask = umask(0)  // the most permissive umask there is
    }

    override func tearDown() {
        umask(savedMask)
        database.remove()
    }

    private func mode(_ path: String) -> mode_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & 0o7777 : nil
    }

    func test_createParentDirectories_are0700_returnedOutermostFirst_andExistingOnesAreLeftAlone() throws {
        let path = database.directory.appendingPathComponent("x/y/shop.sqlite").path
        let created = try SQLiteStoreFiles.createParentDirectories(of: path)
        XCTAssertEqual(created, [database.directory.path, database.directory.path + "/x", database.directory.path + "/x/y"])
        XCTAssertTrue(created.allSatisfy { mode($0) == 0o700 }, "\(created.map { mode($0) ?? 0 })")
        XCTAssertEqual(try SQLiteStoreFiles.createParentDirectories(of: path), [], "a second call creates nothing")
        SQLiteStoreFiles.removeDirectories(created)
        XCTAssertFalse(FileManager.default.fileExists(atPath: database.directory.path))
    }

    func test_createPrivateDatabaseFile_is0600_andLeavesAnExistingFileAsItIs() throws {
        _ = try SQLiteStoreFiles.createParentDirectories(of: database.path)
        XCTAssertTrue(try SQLiteStoreFiles.createPrivateDatabaseFile(database.path))
        XCTAssertEqual(mode(database.path), 0o600)
        XCTAssertEqual(chmod(database.path, 0o644), 0)
        XCTAssertFalse(try SQLiteStoreFiles.createPrivateDatabaseFile(database.path))
        XCTAssertEqual(mode(database.path), 0o644)
    }

    func test_moveIntoPlace_neverReplacesAStoreThatIsThere() throws {
        _ = try SQLiteStoreFiles.createParentDirectories(of: database.path)
        let temporary = database.path + ".new"
        try Data("new".utf8).write(to: URL(fileURLWithPath: temporary))
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: database.path))
        XCTAssertFalse(try SQLiteStoreFiles.moveIntoPlace(temporary, as: database.path))
        XCTAssertEqual(try String(contentsOfFile: database.path, encoding: .utf8), "theirs")

        XCTAssertEqual(unlink(database.path), 0)
        XCTAssertTrue(try SQLiteStoreFiles.moveIntoPlace(temporary, as: database.path))
        XCTAssertEqual(try String(contentsOfFile: database.path, encoding: .utf8), "new")
        XCTAssertFalse(FileManager.default.fileExists(atPath: temporary), "the temporary name is gone")
    }
}
