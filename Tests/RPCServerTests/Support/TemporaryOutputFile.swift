import Foundation
import XCTest
@testable import RPCServer

/// A temporary file for an `OutputWriter` under test to write to: a real descriptor that direct
/// writes may always use (a regular file never blocks), read back whole with `text()`.
///
/// `remove()` closes the descriptor and deletes the file; call it when the test is done (in
/// `tearDown` or a `defer`). It is not left to `deinit`, which ARC may run after the object's last
/// use and before the writer's last write.
final class TemporaryOutputFile: Sendable {
    let path: String
    let fd: Int32

    /// A new empty file in the temporary directory, its name starting with `prefix`.
    init(prefix: String) {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        fd = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o600)
    }

    /// A writer to this file that fails the test if it ever finds its output closed.
    func makeWriter(tracer: Tracer? = nil) -> OutputWriter {
        OutputWriter(output: FileDescriptorOutput(fd: fd), tracer: tracer) { XCTFail("output closed") }
    }

    /// Everything written so far.
    func text() throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    func remove() {
        close(fd)
        try? FileManager.default.removeItem(atPath: path)
    }
}
