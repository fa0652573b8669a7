import Foundation

/// A fresh directory for one test's database file; removed on `remove()`.
struct TemporaryDatabase {
    let directory: URL

    init() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("shop-tests-\(UUID().uuidString)")
    }

    /// A path inside a not-yet-existing subdirectory, so opening also tests directory creation.
    var path: String { directory.appendingPathComponent("data/shop.sqlite").path }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
