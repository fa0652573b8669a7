import Foundation
import XCTest

/// A store for tests of `shop-rpc import` and `export`, run as real processes: a SQLite file
/// in a fresh temporary directory (not created yet), or a fresh PostgreSQL database when
/// `SHOP_RPC_TEST_POSTGRES_URI` names a cluster (scripts/with-postgres).
struct CommandStore {
    enum Kind: String { case sqlite, postgres }

    let kind: Kind
    /// `--db`'s value.
    let location: String
    let remove: () -> Void

    static func sqlite() -> CommandStore {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shop-cmd-\(UUID().uuidString)")
        return CommandStore(kind: .sqlite, location: directory.appendingPathComponent("shop.sqlite").path) {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    static func postgres() throws -> CommandStore {
        let database = try PostgreSQLScratchDatabase()
        return CommandStore(kind: .postgres, location: database.uri, remove: database.drop)
    }

    /// Runs `body` on a new SQLite store, then on a new PostgreSQL one if a cluster is configured;
    /// a failure names the store.
    static func forEach(file: StaticString = #filePath, line: UInt = #line, _ body: (CommandStore) throws -> Void) throws {
        var stores = [sqlite()]
        if let postgres = try? postgres() { stores.append(postgres) }
        for store in stores {
            defer { store.remove() }
            do {
                try body(store)
            } catch {
                XCTFail("on \(store.kind.rawValue): \(error)", file: file, line: line)
            }
        }
    }
}

// MARK: - Running commands

/// What a finished command printed, and its exit status (nil if it did not exit in time).
struct CommandResult {
    let status: Int32?
    let stdout: String
    let stderr: String

    /// stdout parsed as one JSON object (the import's summary).
    /// The summary's counts (its `warnings`, if any, left out: see `warnings`).
    var summary: [String: Int]? {
        guard var object = (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any] else { return nil }
        object["warnings"] = nil
        return object as? [String: Int]
    }

    /// The summary's `warnings`, each a JSON object; empty when it has none.
    var warnings: [[String: Any]] {
        ((try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any])?["warnings"] as? [[String: Any]] ?? []
    }
}

/// Runs `shop-rpc arguments…` to its end, with `input` on stdin (closed after it).
func runCommand(_ arguments: [String], input: String = "", timeout: TimeInterval = 120) throws -> CommandResult {
    let process = try ServerProcess(arguments)
    process.send(input)
    process.closeInput()
    let stdout = process.remainingOutput(timeout: timeout)
    let status = process.waitForExit(timeout: timeout)
    return CommandResult(status: status, stdout: stdout, stderr: process.stderrOutput)
}

/// Writes `text` to a new file named `name` in a fresh temporary directory; returns its path.
func temporaryFile(_ name: String, _ text: String) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shop-file-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
}

/// A CSV of `count` new products `PREFIX-00001`…, with text that needs quoting (commas, quotes,
/// a line break, non-ASCII), in `category`, stock `number % 7`.
func generatedCatalogCSV(prefix: String = "GEN", count: Int, category: String = "gadgets") -> String {
    var text = "sku,name,description,category,priceCents,currency,stock\n"
    for number in 1...count {
        let sku = sku(prefix, number)
        let name = "Gadget \(number), \"deluxe\" édition"
        let description = number % 10 == 0 ? "Line one\nline two, with a comma" : "Plain text \(number)"
        text += "\(sku),\"\(name.replacingOccurrences(of: "\"", with: "\"\""))\",\"\(description)\",\(category),\(100 + number),USD,\(number % 7)\n"
    }
    return text
}

/// `PREFIX-00042` for 42.
func sku(_ prefix: String, _ number: Int) -> String {
    let digits = String(number)
    return prefix + "-" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits
}
