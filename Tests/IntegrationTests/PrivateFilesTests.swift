import Foundation
import XCTest

/// What the real binary writes on disk is its owner's alone, whatever the umask: a trace file it
/// creates is 0600, never reached through a symbolic link; a store's directories it creates are
/// 0700, the database file and SQLite's -wal and -shm 0600.
final class PrivateFilesTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("shop-private-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func test_traceFile_created_is0600_underUmask000() throws {
        let trace = path("trace.jsonl")
        let server = try ServerProcess.withUmask("000", ["--db", ":memory:", "--trace", trace])
        server.sendLine(rpc(1, "ping"))
        XCTAssertNotNil(server.readJSON())
        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0, server.stderrOutput)
        XCTAssertEqual(permissions(trace), 0o600)
        XCTAssertTrue(try String(contentsOfFile: trace, encoding: .utf8).contains("ping"))
    }

    func test_traceFile_existing_keepsItsMode_andIsAppendedTo() throws {
        let trace = path("trace.jsonl")
        try Data("before\n".utf8).write(to: URL(fileURLWithPath: trace))
        XCTAssertEqual(chmod(trace, 0o640), 0)
        let server = try ServerProcess(["--db", ":memory:", "--trace", trace])
        server.sendLine(rpc(1, "ping"))
        XCTAssertNotNil(server.readJSON())
        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0, server.stderrOutput)
        XCTAssertEqual(permissions(trace), 0o640)
        let text = try String(contentsOfFile: trace, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("before\n") && text.contains("ping"), text)
    }

    func test_traceFile_symbolicLink_isRefused_exitTwo_andItsTargetIsUntouched() throws {
        let target = path("target")
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: target))
        for (link, destination) in [(path("link.jsonl"), target), (path("dangling.jsonl"), path("would-be-created"))] {
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: destination)
            let server = try ServerProcess(["--db", ":memory:", "--trace", link])
            server.sendLine(rpc(1, "ping"))
            XCTAssertEqual(server.waitForExit(), 2, link)
            XCTAssertTrue(server.stderrOutput.contains("cannot open trace file \(link): it is a symbolic link"), server.stderrOutput)
            XCTAssertEqual(server.remainingOutput(), "", "nothing is served")
        }
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "precious\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("would-be-created")))
    }

    func test_newStore_directoriesAre0700_andTheDatabaseWalAndShmAre0600_underUmask000() throws {
        let store = path("a/b/shop.sqlite")
        let server = try ServerProcess.withUmask("000", ["--db", store])
        server.sendLine(rpc(1, "cart.add", ["cartId": "c", "sku": "SKU-0001", "quantity": 1]))
        XCTAssertNotNil((server.readJSON() as? [String: Any])?["result"], server.stderrOutput)
        for name in ["a", "a/b"] {
            XCTAssertEqual(permissions(path(name)), 0o700, name)
        }
        for name in ["a/b/shop.sqlite", "a/b/shop.sqlite-wal", "a/b/shop.sqlite-shm"] {
            XCTAssertEqual(permissions(path(name)), 0o600, name)
        }
        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0, server.stderrOutput)
    }

    func test_existingDirectory_keepsItsMode() throws {
        XCTAssertEqual(chmod(directory.path, 0o755), 0)
        let server = try ServerProcess.withUmask("000", ["--db", path("shop.sqlite")])
        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0, server.stderrOutput)
        XCTAssertEqual(permissions(directory.path), 0o755)
        XCTAssertEqual(permissions(path("shop.sqlite")), 0o600)
    }
}
