import Foundation
import XCTest

/// Runs one statement on the SQLite file `file` with Debian's `sqlite3` shell, as an operator
/// would beside running servers (waiting up to 10 s for their locks), and returns its rows as
/// `a|b` lines; fails the test if the shell does. Any thread.
func sqliteShell(_ file: String, _ sql: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["sqlite3", "-batch", "-cmd", ".timeout 10000", file, sql]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    // Read before waiting: a shell whose output fills the pipe would never exit.
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, sql)
    return text.trimmingCharacters(in: .whitespacesAndNewlines)
}
