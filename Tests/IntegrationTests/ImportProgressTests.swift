import Foundation
import XCTest

/// `shop-rpc import`'s progress line: drawn on stderr when it is a terminal (here a pseudo-terminal
/// Python's `pty` module makes), never when it is a pipe. The line is always drawn once more as the
/// import commits, so even a fast import shows it; the redraw rate is tested on a controlled clock
/// (ShopAPITests' `CatalogImportProgressLineTests`).
final class ImportProgressTests: XCTestCase {
    /// Runs `command` (an executable and its arguments) with stderr on a pseudo-terminal; returns
    /// the exit status, stdout, and what the terminal received.
    private func runOnTerminal(_ command: [String]) throws -> (status: Int, stdout: String, terminal: String) {
        let script = try temporaryFile("pty_run.py", """
            import json, os, pty, subprocess, sys
            master, slave = pty.openpty()
            child = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave)
            os.close(slave)
            received = b""
            while True:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                received += chunk
            out = child.stdout.read()
            child.wait()
            print(json.dumps({"status": child.returncode, "stdout": out.decode(), "terminal": received.decode()}))
            """)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + command
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (object["status"] as? Int ?? -1, object["stdout"] as? String ?? "", object["terminal"] as? String ?? "")
    }

    func test_onATerminal_theProgressLineIsDrawn_thenCleared() throws {
        let store = CommandStore.sqlite()
        defer { store.remove() }
        let file = try temporaryFile("catalog.csv", generatedCatalogCSV(count: 5000))
        let binary = ServerProcess.binaryURL.path
        let run = try runOnTerminal([binary, "import", "--db", store.location, file])
        XCTAssertEqual(run.status, 0, run.terminal)
        XCTAssertEqual(run.stdout, #"{"rows":5000,"created":5000,"updated":0,"unchanged":0,"archived":0,"stockSet":5000}"# + "\n")
        XCTAssertTrue(run.terminal.contains("\r5000 rows, "), run.terminal.debugDescription)
        XCTAssertTrue(run.terminal.contains(" rows/s, 100% of the file, committing\u{1B}[K"), run.terminal.debugDescription)
        XCTAssertTrue(run.terminal.hasSuffix("\r\u{1B}[K"), "the line is cleared at the end: \(run.terminal.debugDescription)")
        XCTAssertFalse(run.terminal.contains("\n"), "one line, redrawn in place")

        let dry = try runOnTerminal([binary, "import", "--dry-run", "--db", store.location, file])
        XCTAssertTrue(dry.terminal.contains(" rows/s, 100% of the file, checking\u{1B}[K"), dry.terminal.debugDescription)
    }

    func test_fromStdinOnATerminal_theLineHasNoPercentage() throws {
        let store = CommandStore.sqlite()
        defer { store.remove() }
        let file = try temporaryFile("catalog.csv", generatedCatalogCSV(count: 100))
        let viaPipe = try runOnTerminal(["/bin/sh", "-c", "cat '\(file)' | '\(ServerProcess.binaryURL.path)' import --db '\(store.location)' --format csv -"])
        XCTAssertEqual(viaPipe.status, 0, viaPipe.terminal)
        XCTAssertTrue(viaPipe.terminal.contains("\r100 rows, "), viaPipe.terminal.debugDescription)
        XCTAssertFalse(viaPipe.terminal.contains("% of the file"), "a pipe's size is not known: \(viaPipe.terminal.debugDescription)")
    }

    func test_inAPipe_nothingIsDrawn() throws {
        let store = CommandStore.sqlite()
        defer { store.remove() }
        let result = try runCommand(["import", "--db", store.location, try temporaryFile("c.csv", generatedCatalogCSV(count: 5000))])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stderr, "")
    }
}
